import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.js';
import { checkPoints, formatPointsInput, parsePoints, pointsRefusalKey } from './points.js';

describe("a question's points as typed", () => {
  it('reads a decimal comma or point, two decimals at most', () => {
    expect(parsePoints('8')).toBe(8);
    expect(parsePoints(' 8,5 ')).toBe(8.5);
    expect(parsePoints('8.25')).toBe(8.25);
    expect(parsePoints(',5')).toBe(0.5);
    expect(parsePoints('12,')).toBe(12);
    expect(parsePoints('8,125')).toBe('invalid');
    expect(parsePoints('10001')).toBe('invalid');
  });

  it('names what is wrong with the codes the form translates', () => {
    expect(parsePoints('')).toBe('required');
    expect(parsePoints('   ')).toBe('required');
    expect(parsePoints('abc')).toBe('not_number');
    expect(parsePoints('8,5,1')).toBe('not_number');
    expect(parsePoints('1e3')).toBe('not_number');
    expect(parsePoints('0')).toBe('not_positive');
    expect(parsePoints('-2')).toBe('not_positive');
  });

  it("is shown with the language's decimal separator", () => {
    expect(formatPointsInput(8.5, 'ro')).toBe('8,5');
    expect(formatPointsInput(8.5, 'en')).toBe('8.5');
    expect(formatPointsInput(33.333, 'ro')).toBe('33,33');
    expect(formatPointsInput(1000, 'ro')).toBe('1000');
    expect(formatPointsInput(1000, 'en')).toBe('1000');
  });
});

describe("the test's points together", () => {
  it('must add up to the total, counted in hundredths', () => {
    expect(checkPoints(['33,33', '33,33', '33,34'], 100)).toMatchObject({
      sumCents: 10_000,
      differenceCents: 0,
      isValid: true,
    });
    // 0.1 + 0.2 is not 0.3 in floating point; in hundredths it is.
    expect(checkPoints(['0,1', '0,2'], 0.3).isValid).toBe(true);
  });

  it('says how far the sum is from the total', () => {
    expect(checkPoints(['25,5', '20', '20', '20', '20'], 100)).toMatchObject({
      differenceCents: 550,
      isValid: false,
    });
    expect(checkPoints(['20', '20', '20', '20', '19,5'], 100).differenceCents).toBe(-50);
  });

  it('is not valid while a box is wrong, even when the others add up', () => {
    const check = checkPoints(['50', '50', ''], 100);
    expect(check.rows).toEqual([50, 50, 'required']);
    expect(check.differenceCents).toBe(0);
    expect(check.isValid).toBe(false);
    expect(checkPoints([], 0).isValid).toBe(false);
  });
});

describe('a refused save', () => {
  const refusal = (code: ConstructorParameters<typeof ApiError>[1], details?: unknown) =>
    pointsRefusalKey(new ApiError(400, code, code, details));

  it("is explained by the server's code", () => {
    expect(refusal('VALIDATION_FAILED', [{ code: 'score_sum', path: ['assignedItems'] }])).toBe(
      'error_score_sum',
    );
    expect(refusal('VALIDATION_FAILED', [{ code: 'invalid', path: ['assignedItems'] }])).toBe(
      'tests.pointsEditor.stale',
    );
    expect(refusal('ITEM_ALREADY_MARKED')).toBe('errors.ITEM_ALREADY_MARKED');
    expect(refusal('PHASE_CLOSED')).toBe('errors.PHASE_CLOSED');
    expect(refusal('OPERATION_NOT_PERMITTED')).toBe('errors.OPERATION_NOT_PERMITTED');
    expect(refusal('GENERAL_ERROR')).toBeNull();
    expect(pointsRefusalKey(new Error('network'))).toBeNull();
  });
});
