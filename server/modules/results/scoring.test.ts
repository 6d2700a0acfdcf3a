import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { autoOutcome, parseTypedNumber, scoreAnswer, totalScore } from './scoring.js';

const single = { itemType: 'single' as const, itemCorrectAnswers: [2], score: 5 };
const multiple = { itemType: 'multiple' as const, itemCorrectAnswers: [0, 3], score: 7.5 };
const numeric = { itemType: 'numeric' as const, itemCorrectAnswers: '-12.50', score: 10 };

describe('scoreAnswer', () => {
  it('gives the full score for exactly the correct options, in any order', () => {
    expect(scoreAnswer(single, [2])).toBe(5);
    expect(scoreAnswer(multiple, [3, 0])).toBe(7.5);
  });

  it('gives 0 for anything else', () => {
    for (const answer of [[], [1], [2, 0], null, '2', [2, 2]]) {
      expect(scoreAnswer(single, answer)).toBe(0);
    }
    for (const answer of [[0], [0, 3, 1], [0, 0, 3], null, '0,3']) {
      expect(scoreAnswer(multiple, answer)).toBe(0);
    }
  });

  it('compares numeric answers as numbers', () => {
    for (const typed of ['-12.5', '-12,50', ' -12.500 ', '-012.5']) {
      expect(scoreAnswer(numeric, typed)).toBe(10);
    }
    for (const typed of ['12.5', '-12.51', '', '-12.5x', '−12.5', '1e1', null, [1]]) {
      expect(scoreAnswer(numeric, typed)).toBe(0);
    }
  });

  it('leaves open items to people', () => {
    expect(
      scoreAnswer({ itemType: 'open', itemCorrectAnswers: null, score: 3 }, 'text'),
    ).toBeNull();
  });

  it('never gives more than the item is worth, nor less than 0', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 6 }),
          fc.string(),
          fc.constant(null),
        ),
        (answer) => {
          for (const item of [single, multiple, numeric]) {
            const score = scoreAnswer(item, answer);
            expect(score === 0 || score === item.score).toBe(true);
          }
        },
      ),
    );
  });
});

describe('parseTypedNumber', () => {
  it('reads what a student types: sign, decimal point or comma', () => {
    expect(parseTypedNumber('3,5')).toBe(3.5);
    expect(parseTypedNumber('+.5')).toBe(0.5);
    expect(parseTypedNumber('7.')).toBe(7);
    expect(parseTypedNumber('1 000')).toBe(1000);
    expect(parseTypedNumber('abc')).toBeNull();
    expect(parseTypedNumber('1,2,3')).toBeNull();
    expect(parseTypedNumber('Infinity')).toBeNull();
  });
});

describe('totalScore', () => {
  it('adds in cents and ignores unscored items', () => {
    expect(totalScore([0.1, 0.2, null, 10])).toBe(10.3);
  });
});

describe('autoOutcome', () => {
  const open = { itemType: 'open' as const, itemCorrectAnswers: null, score: 4 };

  it('decides choice and numeric items from the key', () => {
    expect(autoOutcome(single, [2])).toEqual({ state: 'decided', points: 5, origin: 'auto' });
    expect(autoOutcome(numeric, '3')).toEqual({ state: 'decided', points: 0, origin: 'auto' });
    expect(autoOutcome(multiple, null)).toEqual({ state: 'decided', points: 0, origin: 'auto' });
  });

  it('sends a written open answer to marking and gives a blank one 0', () => {
    expect(autoOutcome(open, 'x = 2')).toEqual({
      state: 'awaiting_marking',
      points: null,
      origin: null,
    });
    for (const blank of [null, '', '   \n', undefined]) {
      expect(autoOutcome(open, blank)).toEqual({ state: 'decided', points: 0, origin: 'auto' });
    }
  });
});
