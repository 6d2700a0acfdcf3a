import { describe, expect, it } from 'vitest';
import { buildListFilter } from './use-paged-list.js';
import {
  andWhere,
  containsWhere,
  equalsWhere,
  escapeLike,
  foldDiacritics,
  nameSearchWhere,
  orderParam,
} from './where.js';

describe('list where builders', () => {
  it('escape the like wildcards and the escape character itself', () => {
    expect(escapeLike('50%_a\\b')).toBe('50\\%\\_a\\\\b');
    expect(escapeLike('Ion Pop')).toBe('Ion Pop');
  });

  it('search family or given name, diacritics folded, wildcards literal', () => {
    expect(nameSearchWhere('  Ștefan ')).toEqual({
      or: [{ familyName: { ilike: '%Stefan%' } }, { givenName: { ilike: '%Stefan%' } }],
    });
    expect(nameSearchWhere('a_b%')).toEqual({
      or: [{ familyName: { ilike: '%a\\_b\\%%' } }, { givenName: { ilike: '%a\\_b\\%%' } }],
    });
    expect(nameSearchWhere('   ')).toBeUndefined();
    expect(nameSearchWhere('x', ['name'])).toEqual({ or: [{ name: { ilike: '%x%' } }] });
  });

  it('fold ș ț ă â î, comma-below and cedilla alike', () => {
    expect(foldDiacritics('ȘȚĂÂÎ șțăâî şţ')).toBe('STAAI staai st');
  });

  it('drop "all" values and join the rest with and', () => {
    expect(equalsWhere('county', '')).toBeUndefined();
    expect(equalsWhere('grade', 0)).toEqual({ grade: 0 });
    expect(containsWhere('studentCentre', ' ')).toBeUndefined();
    expect(containsWhere('studentCentre', 'Cluj')).toEqual({
      studentCentre: { ilike: '%Cluj%' },
    });
    expect(andWhere(undefined, false, {})).toBeUndefined();
    expect(andWhere({ a: 1 }, undefined)).toEqual({ a: 1 });
    expect(andWhere({ a: 1 }, { b: 2 })).toEqual({ and: [{ a: 1 }, { b: 2 }] });
  });

  it('build the LoopBack filter: skip is page size times page', () => {
    const order = { field: 'familyName', direction: 'asc' } as const;
    expect(orderParam({ field: 'grade', direction: 'desc' })).toBe('grade DESC');
    expect(buildListFilter(0, 10, order, undefined)).toEqual({
      limit: 10,
      skip: 0,
      order: 'familyName ASC',
    });
    expect(buildListFilter(3, 25, order, { state: 'active' })).toEqual({
      limit: 25,
      skip: 75,
      order: 'familyName ASC',
      where: { state: 'active' },
    });
  });
});
