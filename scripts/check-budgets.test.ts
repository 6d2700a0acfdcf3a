import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUDGETS, FORMULAS, measure, STUDENT_PATH, staffKeysOnPath } from './check-budgets.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

type Chunk = { file: string; imports?: string[]; dynamicImports?: string[]; css?: string[] };

/**
 * A built web app as Vite leaves it: the manifest and its files. Random bytes do not compress,
 * so a file of n random bytes weighs about n bytes brotli-compressed.
 */
function fakeDist(
  jsBytes: number,
  cssBytes: number,
  fontUrl = 'KaTeX_Main.woff2',
  formulaBytes = 1_000,
) {
  const dist = mkdtempSync(path.join(tmpdir(), 'podium-budgets-'));
  dirs.push(dist);
  mkdirSync(path.join(dist, 'assets'));
  mkdirSync(path.join(dist, '.vite'));
  const write = (file: string, body: string | Buffer) => writeFileSync(path.join(dist, file), body);
  write('assets/index.js', randomBytes(jsBytes));
  write('assets/vendor.js', 'export const x = 1;');
  write(
    'assets/index.css',
    `@font-face{src:url(/assets/${fontUrl}) format("woff2")}/*${randomBytes(cssBytes).toString('base64')}*/`,
  );
  // A staff screen a student never opens: large, and never counted.
  write('assets/questions.js', randomBytes(2_000_000));
  for (const root of STUDENT_PATH.slice(1)) write(`assets/${path.basename(root)}.js`, 'x');
  // KaTeX: fetched by the renderer only for a formula.
  write('assets/formulas.js', randomBytes(formulaBytes));
  const manifest: Record<string, Chunk> = {
    'index.html': {
      file: 'assets/index.js',
      imports: ['_vendor.js'],
      dynamicImports: ['src/features/questions/index.ts', ...STUDENT_PATH.slice(1), FORMULAS],
      css: ['assets/index.css'],
    },
    '_vendor.js': { file: 'assets/vendor.js' },
    'src/features/questions/index.ts': { file: 'assets/questions.js', imports: ['_vendor.js'] },
    [FORMULAS]: { file: 'assets/formulas.js', imports: ['_vendor.js'] },
  };
  for (const root of STUDENT_PATH.slice(1)) {
    manifest[root] = { file: `assets/${path.basename(root)}.js`, imports: ['_vendor.js'] };
  }
  write('.vite/manifest.json', JSON.stringify(manifest));
  return { dist, manifest };
}

describe('the first-load budgets', () => {
  it('pass a student path under them, leaving out the screens a student does not open', () => {
    const { dist, manifest } = fakeDist(100_000, 5_000);
    const result = measure(manifest, dist, STUDENT_PATH, { js: 250_000, css: 30_000 });
    expect(result.problems).toEqual([]);
    expect(result.js).toBeGreaterThan(100_000);
    expect(result.js).toBeLessThan(110_000);
    expect(result.sizes.map((s) => s.file)).not.toContain('assets/questions.js');
    expect(result.fonts).toEqual(['/assets/KaTeX_Main.woff2']);
  });

  it('leave KaTeX out of the path without a formula and count it in the path with one', () => {
    const { dist, manifest } = fakeDist(100_000, 5_000, 'KaTeX_Main.woff2', 200_000);
    const budgets = { js: 250_000, css: 30_000 };
    const plain = measure(manifest, dist, STUDENT_PATH, budgets);
    expect(plain.problems).toEqual([]);
    expect(plain.sizes.map((s) => s.file)).not.toContain('assets/formulas.js');
    const math = measure(manifest, dist, [...STUDENT_PATH, FORMULAS], budgets, 'with a formula');
    expect(math.js).toBeGreaterThan(300_000);
    expect(math.problems).toEqual([
      expect.stringMatching(
        /^JavaScript of with a formula is 3\d\d\.\d kB brotli, over 250\.0 kB$/,
      ),
    ]);
  });

  it('fail past 250 kB of JavaScript or 30 kB of CSS, and on a font that is not woff2', () => {
    const { dist, manifest } = fakeDist(260_000, 31_000, 'KaTeX_Main.ttf');
    const result = measure(manifest, dist, STUDENT_PATH, { js: 250_000, css: 30_000 });
    expect(result.problems).toEqual([
      expect.stringMatching(
        /^JavaScript of the student's path is 26\d\.\d kB brotli, over 250\.0 kB$/,
      ),
      expect.stringMatching(/^CSS of the student's path is 3\d\.\d kB brotli, over 30\.0 kB$/),
      "the student's CSS names /assets/KaTeX_Main.ttf: woff2 only",
    ]);
  });

  it('fail the build: the script exits non-zero and says why', () => {
    const run = (dir: string) =>
      spawnSync(process.execPath, ['scripts/check-budgets.mjs', dir], { encoding: 'utf8' });
    const over = run(fakeDist(BUDGETS.js + 10_000, 1_000).dist);
    expect(over.status).toBe(1);
    expect(over.stderr).toContain("check-budgets: JavaScript of the student's path is");
    const overWithFormula = run(
      fakeDist(50_000, 1_000, 'KaTeX_Main.woff2', BUDGETS.jsWithFormulas + 10_000).dist,
    );
    expect(overWithFormula.status).toBe(1);
    expect(overWithFormula.stderr).toContain(
      "check-budgets: JavaScript of the student's path with a formula is",
    );
    expect(overWithFormula.stderr).not.toContain("JavaScript of the student's path is");
    const under = run(fakeDist(50_000, 1_000).dist);
    expect(under.stderr).toBe('');
    expect(under.status).toBe(0);
  });

  it("fail when the student's path names a key that only the staff strings hold", () => {
    const { dist, manifest } = fakeDist(1_000, 1_000);
    const strings = {
      player: { title: 'Test' },
      tests: { gradesTitle: 'Clasa {{grades}}', columns: { name: 'Nume' } },
      reviews: { home: { waiting_one: '{{count}} de făcut', waiting_other: '{{count}}' } },
      questions: { title: 'Întrebări', kinds: { single: 'Un răspuns' } },
    };
    const entry = path.join(dist, 'assets/index.js');
    const code = (body: string) => writeFileSync(entry, body);
    // Core keys (player, the CORE_KEYS of staff groups, a plural one), a bare group name.
    code('t("player.title");t("tests.gradesTitle");t("reviews.home.waiting",{count:n});x="help"');
    expect(staffKeysOnPath(manifest, dist, strings)).toEqual([]);
    // A staff key, and a prefix of staff keys (a template or a joined string).
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the built code's template, as text
    code('t("tests.columns.name");t(`questions.kinds.${k}`);t("questions."+k)');
    expect(staffKeysOnPath(manifest, dist, strings)).toEqual([
      'questions.kinds.…',
      'questions.…',
      'tests.columns.name',
    ]);
  });
});
