import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appealOutcome, paperAppealOutcome, type RemarkedItem } from './context.js';

describe("an appeal's outcome", () => {
  it('changes the score from the threshold in points on, whatever the item is worth', () => {
    // The olympiad's rule: at least 1 point.
    expect(appealOutcome(5, 6, 1)).toEqual({ outcome: 'changed', final: 6 });
    expect(appealOutcome(5, 4, 1)).toEqual({ outcome: 'changed', final: 4 });
    expect(appealOutcome(5, 5.5, 1)).toEqual({ outcome: 'kept', final: 5 });
    expect(appealOutcome(5, 4.01, 1)).toEqual({ outcome: 'kept', final: 5 });
    // Compared in hundredths: 0.1 + 0.2 is 0.3 here.
    expect(appealOutcome(0.1, 0.4, 0.3)).toEqual({ outcome: 'changed', final: 0.4 });
  });

  it('takes any change without a threshold, and keeps an equal mark', () => {
    expect(appealOutcome(5, 5.5, 0)).toEqual({ outcome: 'changed', final: 5.5 });
    expect(appealOutcome(5, 5, 0)).toEqual({ outcome: 'kept', final: 5 });
  });
});

// ---------------------------------------------------------------------------------------
// The reference: the glossary's rule read as it is written. "A re-marked paper's score changes
// only if it differs from the first by at least 1 point; otherwise the first score stays."
// The paper's first score and its re-marked score, compared whole.

function referencePaper(items: RemarkedItem[], minPoints: number): number {
  const first = items.reduce((s, i) => s + Math.round(i.original * 100), 0);
  const remarked = items.reduce((s, i) => s + Math.round(i.result * 100), 0);
  const differs = Math.abs(remarked - first);
  const threshold = Math.round(minPoints * 100);
  return (threshold === 0 || differs >= threshold ? remarked : first) / 100;
}

const sumOf = (finals: { final: number }[]) =>
  finals.reduce((s, f) => s + Math.round(f.final * 100), 0) / 100;

describe('the threshold on the whole paper', () => {
  const item = (id: string, original: number, result: number) => ({ id, original, result });

  it('adds the re-marked items of a paper: two half points move it by one', () => {
    const two = [item('a', 3, 3.5), item('b', 4, 4.5)];
    expect(paperAppealOutcome(two, 1)).toEqual([
      { id: 'a', outcome: 'changed', final: 3.5 },
      { id: 'b', outcome: 'changed', final: 4.5 },
    ]);
    // Each alone would have stayed.
    expect(paperAppealOutcome([item('a', 3, 3.5)], 1)).toEqual([
      { id: 'a', outcome: 'kept', final: 3 },
    ]);
    expect(referencePaper(two, 1)).toBe(sumOf(paperAppealOutcome(two, 1)));
  });

  it('keeps both when the changes cancel out, and an unchanged item is kept', () => {
    const cancel = [item('a', 3, 5), item('b', 4, 2.5)];
    expect(paperAppealOutcome(cancel, 1)).toEqual([
      { id: 'a', outcome: 'kept', final: 3 },
      { id: 'b', outcome: 'kept', final: 4 },
    ]);
    expect(paperAppealOutcome([item('a', 3, 5), item('b', 4, 4)], 1)).toEqual([
      { id: 'a', outcome: 'changed', final: 5 },
      { id: 'b', outcome: 'kept', final: 4 },
    ]);
  });

  it('agrees with the reference on any paper and threshold', () => {
    const mark = fc.integer({ min: 0, max: 28 }).map((n) => n / 4);
    const items = fc
      .array(fc.tuple(mark, mark), { minLength: 1, maxLength: 6 })
      .map((pairs) => pairs.map(([original, result], i) => item(String(i), original, result)));
    const threshold = fc.constantFrom(0, 0.25, 0.5, 1, 1.5, 3);
    fc.assert(
      fc.property(items, threshold, (paper, min) => {
        const got = paperAppealOutcome(paper, min);
        expect(sumOf(got)).toBe(referencePaper(paper, min));
        // All of a paper's items go the same way: every one new, or every one as it was.
        const allNew = got.every((g, i) => g.final === paper[i]?.result);
        const allOld = got.every((g, i) => g.final === paper[i]?.original);
        expect(allNew || allOld).toBe(true);
        for (const [i, g] of got.entries()) {
          expect(g.outcome).toBe(g.final === paper[i]?.original ? 'kept' : 'changed');
        }
      }),
      { numRuns: 500 },
    );
  });
});
