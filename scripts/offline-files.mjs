// The files the service worker keeps on a student's device (web/src/sw.ts, web/vite.config.ts):
// the student's path that scripts/check-budgets.mjs measures, KaTeX, both languages, and the woff2
// fonts its stylesheets name for the scripts Romanian and English are written in.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chunksOf, FONT_URL, FORMULAS, STUDENT_PATH } from './check-budgets.mjs';

/** Font subsets no Romanian or English page shows; a page that needs one fetches it. */
const FOREIGN_SUBSET = /-(?:cyrillic|cyrillic-ext|greek|greek-ext|vietnamese|math|symbols)-/;

/** The student's path, KaTeX (for a formula offline) and the other language, as manifest keys. */
export const OFFLINE_ROOTS = [...STUDENT_PATH, FORMULAS, 'src/i18n/en.json?strings=core'];

/** Workbox's window part, fetched by the pages after they show (web/src/lib/offline-app.ts). */
const WORKBOX_WINDOW = /\/workbox-window\//;

/** Paths relative to `dist` (as the precache manifest names them) of the files to keep. */
export function offlineFiles(dist) {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
  const files = new Set(['index.html']);
  const roots = [...OFFLINE_ROOTS, ...Object.keys(manifest).filter((k) => WORKBOX_WINDOW.test(k))];
  for (const key of chunksOf(manifest, roots)) {
    const chunk = manifest[key];
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
  }
  for (const css of [...files].filter((f) => f.endsWith('.css'))) {
    for (const m of readFileSync(path.join(dist, css), 'utf8').matchAll(FONT_URL)) {
      const font = m[1].replace(/^\//, '');
      if (font.endsWith('.woff2') && !FOREIGN_SUBSET.test(path.basename(font))) files.add(font);
    }
  }
  return files;
}
