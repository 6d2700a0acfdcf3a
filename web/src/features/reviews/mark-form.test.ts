import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.js';
import {
  checkMark,
  formatMark,
  markRefusal,
  parseMark,
  quickMarks,
  readMark,
  rubricSum,
} from './mark-form.js';

describe('a typed mark', () => {
  it('takes a decimal comma or point and refuses what is not a number', () => {
    expect(parseMark('7,5')).toBe(7.5);
    expect(parseMark(' 7.5 ')).toBe(7.5);
    expect(parseMark(',5')).toBe(0.5);
    expect(parseMark('')).toBe('required');
    expect(parseMark('7,5,1')).toBe('not_number');
    expect(parseMark('șapte')).toBe('not_number');
    expect(parseMark('-1')).toBe('out_of_range');
  });

  it('is 0 to the item points in the phase step', () => {
    expect(checkMark(0, 10, 0.5)).toBeNull();
    expect(checkMark(10, 10, 0.5)).toBeNull();
    expect(checkMark(10.5, 10, 0.5)).toBe('out_of_range');
    expect(checkMark(7.25, 10, 0.5)).toBe('not_in_step');
    expect(checkMark(7.25, 10, 0.25)).toBeNull();
    // Hundredths: 0.1 + 0.2 is a mark in a step of 0.1.
    expect(checkMark(0.1 + 0.2, 1, 0.1)).toBeNull();
    expect(readMark('7,25', 10, 0.5)).toBe('not_in_step');
    expect(readMark('11', 10, 1)).toBe('out_of_range');
    expect(readMark('6,5', 10, 0.5)).toBe(6.5);
  });
});

describe('a rubric', () => {
  const criteria = [
    { id: 'a', label: 'Aduce la același numitor', points: 2.5 },
    { id: 'b', label: 'Adună corect', points: 0.1 },
    { id: 'c', label: 'Simplifică', points: 0.2 },
  ];
  it('adds the ticked criteria in hundredths', () => {
    expect(rubricSum(criteria, [])).toBe(0);
    expect(rubricSum(criteria, ['a'])).toBe(2.5);
    expect(rubricSum(criteria, ['b', 'c'])).toBe(0.3);
    expect(rubricSum(criteria, ['a', 'b', 'c', 'unknown'])).toBe(2.8);
  });
});

describe('quick marks', () => {
  it('lists every mark of a short scale and none of a long one', () => {
    expect(quickMarks(2, 0.5)).toEqual([0, 0.5, 1, 1.5, 2]);
    expect(quickMarks(10, 1)).toHaveLength(11);
    expect(quickMarks(30, 0.5)).toEqual([]);
  });
});

describe('a refused mark', () => {
  it('says what went wrong', () => {
    expect(markRefusal(new ApiError(409, 'REVIEW_CHANGED', ''), 'msg_failed_add_mark').key).toBe(
      'errors.REVIEW_CHANGED',
    );
    expect(
      markRefusal(
        new ApiError(400, 'CLIENT_ERROR', '', { reviewerScore: ['not_in_step'] }),
        'msg_failed_add_mark',
      ),
    ).toEqual({ key: 'error_not_in_step', field: 'reviewerScore', code: 'not_in_step' });
    expect(
      markRefusal(new ApiError(400, 'CLIENT_ERROR', '', { criteria: ['score_sum'] }), 'x').key,
    ).toBe('error_score_sum');
    expect(markRefusal(new Error('boom'), 'message_mediation_failed').key).toBe(
      'message_mediation_failed',
    );
  });
  it('formats marks in the interface language', () => {
    expect(formatMark(7.5, 'ro')).toBe('7,5');
    expect(formatMark(null, 'en')).toBe('—');
  });
});
