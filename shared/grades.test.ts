import { describe, expect, it } from 'vitest';
import { schoolGradeName } from './grades.js';

describe('schoolGradeName', () => {
  it('names grades as printed documents do', () => {
    expect([0, 1, 2, 5, 9, 12, 99].map(schoolGradeName)).toEqual([
      'clasa pregătitoare',
      'clasa I',
      'clasa a II-a',
      'clasa a V-a',
      'clasa a IX-a',
      'clasa a XII-a',
      'absolvent',
    ]);
  });
});
