import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OFFLINE_ROOTS, offlineFiles } from './offline-files.mjs';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A built web app: the student's path, a staff screen, and a stylesheet naming fonts. */
function fakeDist() {
  const dist = mkdtempSync(path.join(tmpdir(), 'podium-offline-'));
  dirs.push(dist);
  mkdirSync(path.join(dist, 'assets'));
  mkdirSync(path.join(dist, '.vite'));
  const manifest: Record<string, { file: string; imports?: string[]; css?: string[] }> = {
    'index.html': { file: 'assets/index.js', imports: ['_vendor.js'], css: ['assets/index.css'] },
    '_vendor.js': { file: 'assets/vendor.js' },
    'src/features/questions/index.ts': { file: 'assets/questions.js', imports: ['_staff.js'] },
    '_staff.js': { file: 'assets/staff.js' },
    '../node_modules/workbox-window/build/workbox-window.prod.es5.mjs': {
      file: 'assets/workbox-window.js',
    },
  };
  for (const root of OFFLINE_ROOTS.slice(1)) {
    manifest[root] = { file: `assets/${path.basename(root)}.js`, imports: ['_vendor.js'] };
  }
  writeFileSync(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(manifest));
  writeFileSync(
    path.join(dist, 'assets', 'index.css'),
    [
      '@font-face{src:url(/assets/roboto-latin-ext-400-normal-a1.woff2) format("woff2")}',
      '@font-face{src:url(/assets/roboto-cyrillic-400-normal-b2.woff2) format("woff2")}',
      '@font-face{src:url(/assets/KaTeX_Main-Regular-c3.woff2) format("woff2")}',
    ].join('\n'),
  );
  return dist;
}

describe('the files kept on a student device', () => {
  it('are the student path, both languages and its fonts, never a staff screen', () => {
    const files = offlineFiles(fakeDist());
    expect(files).toContain('index.html');
    expect(files).toContain('assets/index.js');
    expect(files).toContain('assets/vendor.js');
    expect(files).toContain('assets/index.css');
    expect(files).toContain('assets/index.ts.js');
    expect(files).toContain('assets/renderer.ts.js');
    expect(files).toContain('assets/formulas.ts.js');
    expect(files).toContain('assets/ro.json?strings=core.js');
    expect(files).toContain('assets/en.json?strings=core.js');
    // Fetched by the pages after they show, and kept like the rest of the app.
    expect(files).toContain('assets/workbox-window.js');
    expect(files).toContain('assets/roboto-latin-ext-400-normal-a1.woff2');
    expect(files).toContain('assets/KaTeX_Main-Regular-c3.woff2');
    // Neither the staff screens nor a script Romanian and English do not use.
    expect(files).not.toContain('assets/questions.js');
    expect(files).not.toContain('assets/staff.js');
    expect(files).not.toContain('assets/roboto-cyrillic-400-normal-b2.woff2');
  });
});
