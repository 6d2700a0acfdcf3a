import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, FIELD_CODES } from '../../../shared/errors.js';
import { MAX_FORMULA_CHARS, MAX_FORMULA_DEPTH } from '../../../shared/statement.js';
import en from './en.json';
import ro from './ro.json';
import { SPEC_MESSAGE_KEYS } from './spec-keys.js';

type Tree = { [k: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

const files = { ro: flatten(ro as Tree), en: flatten(en as Tree) };
const placeholders = (s: string) => [...s.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

describe('translations', () => {
  it('have the same keys in ro.json and en.json', () => {
    const ro = [...files.ro.keys()].sort();
    const en = [...files.en.keys()].sort();
    expect(ro.filter((k) => !files.en.has(k))).toEqual([]);
    expect(en.filter((k) => !files.ro.has(k))).toEqual([]);
  });

  it('carry every message key of SPEC.md §8', () => {
    for (const lang of ['ro', 'en'] as const) {
      const missing = SPEC_MESSAGE_KEYS.filter((k) => !files[lang].has(k));
      expect(missing, lang).toEqual([]);
    }
  });

  it('translate every server error code and every field code', () => {
    for (const lang of ['ro', 'en'] as const) {
      expect(
        ERROR_CODES.filter((c) => !files[lang].has(`errors.${c}`)),
        lang,
      ).toEqual([]);
      expect(
        FIELD_CODES.filter((c) => !files[lang].has(`error_${c}`)),
        lang,
      ).toEqual([]);
    }
  });

  it('have no empty strings and the same placeholders in both languages', () => {
    for (const [key, text] of files.ro) {
      expect(text.trim(), key).not.toBe('');
      expect(files.en.get(key)?.trim(), key).not.toBe('');
      expect(placeholders(text), key).toEqual(placeholders(files.en.get(key) ?? ''));
    }
  });

  it('use the wording SPEC.md gives for validation messages', () => {
    expect(files.ro.get('error_required')).toBe('Câmpul este obligatoriu');
    expect(files.en.get('error_required')).toBe('The field is required');
    expect(files.ro.get('error_too_short')).toBe('Câmp incorect');
    expect(files.ro.get('error_invalid_date')).toBe('Dată invalidă');
    expect(files.ro.get('error_teacher_not_found')).toBe('Cod profesor incorect');
    expect(files.ro.get('error_code_exists')).toBe('Codul există deja');
    expect(files.en.get('app.loading')).toBe('Loading...');
    expect(files.en.get('app.errorBoundary')).toBe('An error has occurred');
  });

  it('state the formula limits the server applies', () => {
    for (const lang of ['ro', 'en'] as const) {
      expect(files[lang].get('error_formula_too_deep'), lang).toContain(String(MAX_FORMULA_DEPTH));
      expect(files[lang].get('error_formula_too_long')?.replace(/[.,]/g, ''), lang).toContain(
        String(MAX_FORMULA_CHARS),
      );
    }
  });

  it('hold no key that nothing shows (issue 36)', () => {
    const sources: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))
          sources.push(readFileSync(full, 'utf8'));
      }
    };
    for (const dir of ['web/src', 'shared']) walk(dir);
    const text = sources.join('\n');
    // Written whole, or built from a written stem: `tests.difficulty.${d}`, `error_${code}`.
    const literals = new Set([...text.matchAll(/["'`]([A-Za-z_][\w.-]*)["'`]/g)].map((m) => m[1]));
    const stems = [...text.matchAll(/`([A-Za-z_][\w.]*[._])\$\{/g)].map((m) => m[1] ?? '');
    // i18next's own suffixes: plural forms and the context (`title` with context `student`).
    const base = (key: string) => key.replace(/_(one|few|other|many|zero|two|student)$/, '');
    const unused = [...files.en.keys()].filter(
      (key) =>
        !literals.has(key) &&
        !literals.has(base(key)) &&
        !stems.some((stem) => stem !== '' && key.startsWith(stem)),
    );
    expect(unused).toEqual([]);
  });
});
