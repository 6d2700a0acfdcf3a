// The thread that reads scanned pages (scan-read.thread.ts), started by paper-jobs.ts. Plain
// JavaScript so Node can start it as is; the TypeScript is loaded through tsx here.
import { tsImport } from 'tsx/esm/api';

await tsImport('./scan-read.thread.ts', import.meta.url);
