// Builds the web app when its sources are newer than web/dist (or it was never built), as
// `npm run build:web` does.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const SOURCES = [
  'web/src',
  'web/index.html',
  'web/vite.config.ts',
  'web/public',
  'shared',
  'package-lock.json',
];

function newest(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(p).reduce((m, name) => Math.max(m, newest(path.join(p, name))), st.mtimeMs);
}

export function ensureWebBuild({ force = false } = {}) {
  const index = 'web/dist/index.html';
  const builtAt = existsSync(index) ? statSync(index).mtimeMs : 0;
  const changedAt = Math.max(...SOURCES.map(newest));
  if (!force && builtAt > changedAt) return;
  console.log('Building the web app…');
  const res = spawnSync(
    'npx',
    ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'],
    {
      stdio: 'inherit',
    },
  );
  if (res.status !== 0) process.exit(res.status ?? 1);
  // As `npm run build:web`: the student's budgets, then the .br/.gz copies the server sends.
  for (const script of ['scripts/check-budgets.mjs', 'scripts/precompress.mjs']) {
    const step = spawnSync(process.execPath, [script, 'web/dist'], { stdio: 'inherit' });
    if (step.status !== 0) process.exit(step.status ?? 1);
  }
}
