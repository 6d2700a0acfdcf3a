// `node scripts/crash-test.mjs [--students 200] [--answers 40] [--kills 2] [--seed n]`:
// kill -9 of the server during a scripted exam on PostgreSQL (DATABASE_URL's server, else the
// local one), then a restart; checks that every acknowledged answer is stored and that every
// student finishes. The check itself is bench/exam-day-crash.ts.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const res = spawnSync(
  process.execPath,
  ['--import', 'tsx', 'bench/exam-day-crash.ts', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
process.exit(res.status ?? 1);
