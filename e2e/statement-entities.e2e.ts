import { readFileSync } from 'node:fs';
// markdown-it's own `entities` (4.x), the one the server renders with.
import { decodeHTML, decodeHTMLStrict, htmlDecodeTree } from 'entities/lib/decode.js';
import type { Browser } from 'playwright-core';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, openBrowser } from './harness.js';

/** Every named character reference of `entities`' table (`amp;`, `notin;`, `not`…), by its trie. */
function entityNames(): string[] {
  const VALUE_LENGTH = 0xc000;
  const BRANCH_LENGTH = 0x3f80;
  const JUMP_TABLE = 0x7f;
  const tree = htmlDecodeTree;
  /** The node `char` leads to from the node at `index`, or -1 (entities' determineBranch). */
  const branch = (index: number, char: number): number => {
    const current = tree[index] ?? 0;
    const valueLength = (current & VALUE_LENGTH) >> 14;
    const nodeIdx = index + Math.max(1, valueLength);
    const branchCount = (current & BRANCH_LENGTH) >> 7;
    const jumpOffset = current & JUMP_TABLE;
    if (branchCount === 0) return jumpOffset !== 0 && char === jumpOffset ? nodeIdx : -1;
    if (jumpOffset) {
      const value = char - jumpOffset;
      return value < 0 || value >= branchCount ? -1 : (tree[nodeIdx + value] ?? 0) - 1;
    }
    let lo = nodeIdx;
    let hi = lo + branchCount - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const midVal = tree[mid] ?? 0;
      if (midVal < char) lo = mid + 1;
      else if (midVal > char) hi = mid - 1;
      else return tree[mid + branchCount] ?? -1;
    }
    return -1;
  };
  const chars = [...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz;'];
  const names: string[] = [];
  const walk = (index: number, name: string) => {
    for (const c of chars) {
      const next = branch(index, c.charCodeAt(0));
      if (next < 0) continue;
      if (((tree[next] ?? 0) & VALUE_LENGTH) >> 14 !== 0) names.push(name + c);
      if (c !== ';') walk(next, name + c);
    }
  };
  walk(0, '');
  return names;
}

// The web app decodes markdown-it's character references with the browser's parser instead of
// `entities` (web/src/components/statement/html-entities.ts): the two must agree on every name.
describe.skipIf(!hasChromium)("statements' character references in the browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('decodes every named reference as `entities` does, and nothing else', async () => {
    const names = entityNames();
    // The HTML standard's table: 2,231 names, 106 of them also without the semicolon.
    expect(names.length).toBeGreaterThan(2200);
    expect(names).toContain('notin;');
    const source = readFileSync(
      new URL('../web/src/components/statement/html-entities.ts', import.meta.url),
      'utf8',
    );
    const js = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const page = await browser.newPage();
    await page.setContent('<!doctype html><title>entities</title>');
    await page.addScriptTag({
      content: `${js.replace(/^export /gm, '')}\nwindow.shim = { decodeHTML, decodeHTMLStrict };`,
    });
    // markdown-it's uses: `&name;` strictly (inline text), and `&name;` in link destinations
    // and titles (legacy names allowed); and text around them, and names that are none.
    const inputs = [
      ...names.map((n) => `&${n.endsWith(';') ? n : `${n};`}`),
      ...names.filter((n) => !n.endsWith(';')).map((n) => `&${n}it;`),
      '&nosuchname;',
      '&ampx;',
      '&notit;',
      '&AMP;',
      '&semi;',
      'a &lt; b &amp;&amp; c &gt; d',
      '<img src=x onerror=alert(1)> &lt;script&gt;',
    ];
    const got = await page.evaluate((all) => {
      const shim = (window as unknown as { shim: Record<string, (s: string) => string> }).shim;
      return all.map((s) => [shim.decodeHTMLStrict?.(s), shim.decodeHTML?.(s)]);
    }, inputs);
    const wrong = inputs.flatMap((s, i) => {
      const [strict, loose] = got[i] ?? [];
      const want = [decodeHTMLStrict(s), decodeHTML(s)];
      return strict === want[0] && loose === want[1] ? [] : [{ s, got: got[i], want }];
    });
    expect(wrong).toEqual([]);
    // A tag in the text stays text: nothing was added to the page.
    expect(await page.locator('img').count()).toBe(0);
    await page.close();
  });
});
