// `npm test`: unit tests, API tests on the database (PostgreSQL when DATABASE_URL is set,
// else PGlite) and browser tests in the system Chromium. Without Chromium the browser part
// is skipped, loudly.
import { spawnSync } from 'node:child_process';
import './node-version.mjs';
import { existsSync } from 'node:fs';
import { ensureWebBuild } from './web-build.mjs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(chromium);
const projects = ['unit', 'api'];

if (hasChromium) {
  ensureWebBuild();
  projects.push('e2e');
} else {
  const line = '!'.repeat(78);
  console.warn(
    `\n${line}\n!! Chromium not found at ${chromium}: the BROWSER TESTS ARE SKIPPED.\n!! Install it (Debian: apt-get install chromium) or set CHROMIUM_PATH.\n${line}\n`,
  );
}
console.log(
  `Database for API tests: ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'PGlite (in memory)'}`,
);

const args = [
  'vitest',
  'run',
  ...projects.flatMap((p) => ['--project', p]),
  ...process.argv.slice(2),
];
const res = spawnSync('npx', args, { stdio: 'inherit' });
if (!hasChromium && res.status === 0) console.warn('\nBrowser tests were SKIPPED (no Chromium).');
process.exit(res.status ?? 1);
