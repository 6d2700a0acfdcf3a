// `node scripts/i18n-merge.mjs <ro|en> <file.json>`: deep-merges a file of new keys into
// web/src/i18n/<lang>.json (read, merge and rename in one go, so parallel edits do not clash).
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

const [lang, file] = process.argv.slice(2);
if (!['ro', 'en'].includes(lang) || !file) {
  console.error('usage: node scripts/i18n-merge.mjs <ro|en> <file.json>');
  process.exit(2);
}
const target = `web/src/i18n/${lang}.json`;
const merge = (into, from) => {
  for (const [k, v] of Object.entries(from)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      if (typeof into[k] === 'string') throw new Error(`${k} is a string in ${target}`);
      into[k] = merge(into[k] ?? {}, v);
    } else {
      into[k] = v;
    }
  }
  return into;
};
const next = merge(
  JSON.parse(readFileSync(target, 'utf8')),
  JSON.parse(readFileSync(file, 'utf8')),
);
const tmp = `${target}.${process.pid}.tmp`;
writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`);
renameSync(tmp, target);
console.log(`merged ${file} into ${target}`);
