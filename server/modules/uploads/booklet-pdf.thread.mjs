// The thread that draws a room's answer booklets (booklet-pdf.thread.ts), started by
// paper-jobs.ts. Plain JavaScript so Node can start it as is; the TypeScript is loaded through
// tsx here.
import { tsImport } from 'tsx/esm/api';

await tsImport('./booklet-pdf.thread.ts', import.meta.url);
