import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  API_FILES,
  apiFiles,
  describeApi,
  REGENERATE,
  stableDescription,
} from './api-description.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Where two texts first differ, as a line number and the two lines. */
function firstDifference(committed: string, current: string) {
  const a = committed.split('\n');
  const b = current.split('\n');
  const i = b.findIndex((line, n) => line !== a[n]);
  const at = i === -1 ? b.length : i;
  return `line ${at + 1}: committed ${JSON.stringify(a[at] ?? '(end)')}, routes give ${JSON.stringify(b[at] ?? '(end)')}`;
}

let document: Awaited<ReturnType<typeof describeApi>>;
beforeAll(async () => {
  document = await describeApi();
});

describe('the committed API description and client types', () => {
  it('are what the current routes produce', async () => {
    const current = await apiFiles(document);
    for (const [kind, file] of Object.entries(API_FILES)) {
      const made = current[kind as keyof typeof API_FILES];
      const committed = await readFile(path.join(root, file), 'utf8').catch(() => '');
      if (committed !== made) {
        expect.fail(
          `${file} is not what the routes produce (${firstDifference(committed, made)}): run \`${REGENERATE}\` and commit the result`,
        );
      }
    }
  });

  it('do not depend on the order routes are registered in', () => {
    const reversed = {
      ...document,
      paths: Object.fromEntries(
        Object.entries(document.paths ?? {})
          .reverse()
          .map(([p, item]) => [p, Object.fromEntries(Object.entries(item).reverse())]),
      ),
    };
    expect(JSON.stringify(stableDescription(reversed))).toBe(JSON.stringify(document));
  });
});
