import { describe, expect, it } from 'vitest';
import { anonymousCode, conflictsOf, pickReviewers } from './assign.js';

describe('pickReviewers', () => {
  it('spreads answers evenly over the pool, two distinct teachers each', () => {
    const pool = ['a', 'b', 'c', 'd', 'e'];
    const load = new Map<string, number>();
    for (let i = 0; i < 10; i++) {
      const picked = pickReviewers(pool, load, new Set(), new Set(), 2);
      expect(new Set(picked).size).toBe(2);
    }
    expect([...load.values()]).toEqual([4, 4, 4, 4, 4]);
  });

  it('avoids the mediator while others are free, and never picks an excluded one', () => {
    const load = new Map<string, number>();
    expect(pickReviewers(['med', 'b', 'c'], load, new Set(), new Set(['med']), 2)).toEqual([
      'b',
      'c',
    ]);
    // Only when the pool has nobody else.
    expect(pickReviewers(['med', 'b'], new Map(), new Set(), new Set(['med']), 2)).toEqual([
      'b',
      'med',
    ]);
    // A conflicted teacher is excluded, so never picked, even when the pool is short.
    expect(pickReviewers(['coord', 'b'], new Map(), new Set(['coord']), new Set(), 2)).toEqual([
      'b',
    ]);
    expect(pickReviewers(['a', 'b', 'c'], new Map(), new Set(['a', 'b']), new Set(), 2)).toEqual([
      'c',
    ]);
  });
});

describe('conflictsOf', () => {
  it("names the student's coordinating teacher and whoever holds their team code", () => {
    const codes = new Map([
      ['t1', 'ECHIPA1'],
      ['t2', 'ECHIPA2'],
      ['t3', null],
    ]);
    const avoid = conflictsOf({ teacherRef: 't3', teamCode: 'ECHIPA2' }, codes, ['t1', 't2', 't3']);
    expect([...avoid].sort()).toEqual(['t2', 't3']);
    expect(conflictsOf(undefined, codes, ['t1']).size).toBe(0);
  });
});

describe('anonymousCode', () => {
  it('is six unambiguous letters and digits', () => {
    for (let i = 0; i < 50; i++)
      expect(anonymousCode()).toMatch(/^[A-HJKMNP-Z2-9]{3}-[A-HJKMNP-Z2-9]{3}$/);
  });
});
