import { describe, expect, it } from 'vitest';
import { appealOutcome } from './context.js';

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
