import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach } from 'vitest';
import { openBrowsers, SCREENSHOTS } from './harness.js';

// When a browser test fails, every page still open is saved as
// e2e/screenshots/failed/<file>-<test>-<n>.png: a failure on a loaded machine that does not
// come back when the file runs alone can then be read from what the page showed.
const FAILED = path.join(SCREENSHOTS, 'failed');

afterEach(async (context) => {
  if (context.task.result?.state !== 'fail') return;
  const pages = [...openBrowsers].flatMap((b) => b.contexts().flatMap((c) => c.pages()));
  if (pages.length === 0) return;
  await mkdir(FAILED, { recursive: true });
  const name = `${path.basename(context.task.file?.name ?? 'e2e', '.e2e.ts')}-${context.task.name}`
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .slice(0, 120);
  for (const [i, page] of pages.entries()) {
    // A page that closed or hangs leaves no picture; the test's own error is what counts.
    await page
      .screenshot({
        path: path.join(FAILED, `${name}-${i + 1}.png`),
        fullPage: true,
        timeout: 5_000,
      })
      .catch(() => undefined);
  }
});
