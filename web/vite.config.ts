import { readFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { offlineFiles } from '../scripts/offline-files.mjs';
import { type StringsPart, stringsPart } from './src/i18n/parts.js';

const here = path.dirname(new URL(import.meta.url).pathname);

/** A `url(…woff)` or `url(…ttf)` fallback after the woff2 source of an @font-face. */
const OLD_FONT_SOURCE = /,\s*url\([^)]*\.(?:woff|ttf)\)\s*format\(["'](?:woff|truetype)["']\)/g;

/**
 * Fonts in woff2 only: every browser Podium supports reads it, so the woff and ttf fallbacks of
 * KaTeX's and Roboto's stylesheets are dropped and never copied to web/dist.
 */
function woff2Only(): Plugin {
  return {
    name: 'podium-woff2-only',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('.css')) return null;
      const trimmed = code.replace(OLD_FONT_SOURCE, '');
      return trimmed === code ? null : trimmed;
    },
  };
}

/** `./ro.json?strings=core`: one part of a language's strings (src/i18n/parts.ts). */
const STRINGS_PART = /^(.*[\\/]i18n[\\/](?:ro|en)\.json)\?strings=(core|staff)$/;

/**
 * Serves each part of a language's strings as a module of its own: a chunk per language and
 * part, from the one file each language has.
 */
function stringsParts(): Plugin {
  return {
    name: 'podium-strings-parts',
    enforce: 'pre',
    async resolveId(source, importer) {
      const [file, query] = source.split('?');
      if (!file || !/^strings=(core|staff)$/.test(query ?? '')) return null;
      const resolved = await this.resolve(file, importer, { skipSelf: true });
      return resolved ? `${resolved.id}?${query}` : null;
    },
    load(id) {
      const match = STRINGS_PART.exec(id);
      if (!match?.[1]) return null;
      this.addWatchFile(match[1]);
      const tree = JSON.parse(readFileSync(match[1], 'utf8'));
      return `export default ${JSON.stringify(stringsPart(tree, match[2] as StringsPart))};`;
    },
  };
}

/**
 * markdown-it's `entities` and `linkify-it` in the browser: the HTML parser's own character
 * references and an empty link matcher (statements render with `linkify: false`), about 15 kB
 * less on a student's first load (src/components/statement/html-entities.ts, no-linkify.ts).
 * Only markdown-it's imports are replaced; the server renders with the real packages.
 */
function lighterMarkdown(): Plugin {
  const replaced: Record<string, string> = {
    entities: path.resolve(here, 'src/components/statement/html-entities.ts'),
    'linkify-it': path.resolve(here, 'src/components/statement/no-linkify.ts'),
  };
  return {
    name: 'podium-lighter-markdown',
    enforce: 'pre',
    resolveId(source, importer) {
      const target = replaced[source];
      if (!target || !importer || !/[\\/]node_modules[\\/]markdown-it[\\/]/.test(importer)) {
        return null;
      }
      return target;
    },
  };
}

/** Where this build writes (`--outDir` may move it): the precache list is read from there. */
let outDir = path.resolve(here, 'dist');
const rememberOutDir: Plugin = {
  name: 'podium-out-dir',
  apply: 'build',
  configResolved(config) {
    outDir = path.resolve(config.root, config.build.outDir);
  },
};

export default defineConfig({
  root: here,
  plugins: [
    woff2Only(),
    stringsParts(),
    lighterMarkdown(),
    react(),
    rememberOutDir,
    // The service worker (src/sw.ts) keeps the student's path on the device; the page registers
    // it itself (lib/offline-app.ts), and the app needs no install prompt or icons.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectRegister: false,
      manifest: false,
      injectManifest: {
        globPatterns: ['**/*.{html,js,css,json,woff2}'],
        globIgnores: ['.vite/**'],
        // Only what a student's device opens: staff screens never reach it unasked.
        manifestTransforms: [
          (entries) => {
            const keep = offlineFiles(outDir);
            return { manifest: entries.filter((e) => keep.has(e.url)), warnings: [] };
          },
        ],
      },
    }),
  ],
  build: {
    outDir: path.resolve(here, 'dist'),
    emptyOutDir: true,
    // web/dist/.vite/manifest.json: which chunks each page needs (scripts/check-budgets.mjs).
    manifest: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The statement renderer (Markdown) in a chunk of its own, which only
            // components/statement/renderer.ts fetches for the player (never a shared chunk that
            // the sign-in or My tests pages import). KaTeX is not in it: components/statement/
            // formulas.ts fetches it, in a chunk of its own, only for a statement with a formula.
            {
              name: 'statement-renderer',
              test: /node_modules[\\/](?:markdown-it|mdurl|uc\.micro|linkify-it|punycode\.js|entities)[\\/]|shared[\\/]statement-core\.ts$|components[\\/]statement[\\/](?:html-entities|no-linkify)\.ts$/,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': `http://127.0.0.1:${process.env.PORT ?? 3000}` },
  },
});
