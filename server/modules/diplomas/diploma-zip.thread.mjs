// The thread that draws a ZIP's diplomas (diploma-zip.thread.ts), started by diploma-jobs.ts.
// Plain JavaScript so Node can start it as is; the TypeScript is loaded through tsx here,
// whatever started the server (npm start, the tests, the benchmarks).
import { tsImport } from 'tsx/esm/api';

await tsImport('./diploma-zip.thread.ts', import.meta.url);
