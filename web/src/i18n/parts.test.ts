import { describe, expect, it } from 'vitest';
import en from './en.json';
import { CORE_KEYS, STAFF_GROUPS, stringsPart } from './parts.js';
import ro from './ro.json';

type Tree = { [k: string]: string | Tree };

const flatten = (tree: Tree, prefix = ''): string[] =>
  Object.entries(tree).flatMap(([k, v]) => {
    const key = prefix ? `${prefix}.${k}` : k;
    return typeof v === 'string' ? [key] : flatten(v, key);
  });

describe('the two parts of the strings', () => {
  it.each([
    ['ro', ro],
    ['en', en],
  ])(
    '%s: split every key into exactly one part, the staff groups apart from the rest',
    (_, tree) => {
      const all = flatten(tree as Tree).sort();
      const core = flatten(stringsPart(tree as Tree, 'core'));
      const staff = flatten(stringsPart(tree as Tree, 'staff'));
      expect([...core, ...staff].sort()).toEqual(all);
      expect(core.filter((k) => staff.includes(k))).toEqual([]);
      for (const key of staff) expect(STAFF_GROUPS).toContain(key.split('.')[0]);
      for (const key of CORE_KEYS) {
        expect(core.some((k) => k === key || k.startsWith(`${key}_`))).toBe(true);
      }
      expect(core).toContain('errors.GENERAL_ERROR');
      expect(core.some((k) => k.startsWith('player.'))).toBe(true);
      expect(staff.some((k) => k.startsWith('questions.'))).toBe(true);
    },
  );

  it('name only groups the strings have, so that none is left in the core by a typo', () => {
    for (const group of STAFF_GROUPS) expect(Object.keys(ro)).toContain(group);
  });
});
