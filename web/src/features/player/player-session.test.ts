import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.js';
import { answerRefusalOf, classifyAnswerError, isTransient } from './player-session.js';

describe('answer write failures', () => {
  it('retries what the network or a busy server caused', () => {
    for (const status of [0, 401, 408, 429, 500, 502, 503]) {
      expect(classifyAnswerError(new ApiError(status, 'GENERAL_ERROR', '')), String(status)).toBe(
        'retry',
      );
    }
    expect(isTransient(new TypeError('Failed to fetch'))).toBe(true);
  });

  it('stops when the attempt takes no more answers, drops what can never be accepted', () => {
    expect(classifyAnswerError(new ApiError(409, 'TEST_NOT_ACTIVE', ''))).toBe('ended');
    expect(classifyAnswerError(new ApiError(409, 'TEST_ALREADY_REVIEWED', ''))).toBe('ended');
    expect(classifyAnswerError(new ApiError(404, 'NOT_FOUND', ''))).toBe('ended');
    expect(classifyAnswerError(new ApiError(403, 'OPERATION_NOT_PERMITTED', ''))).toBe('ended');
    expect(classifyAnswerError(new ApiError(400, 'VALIDATION_FAILED', ''))).toBe('rejected');
  });
});

describe('an answer refused for good', () => {
  it('is dropped, not retried, and says why: the field code the server gave', () => {
    const refused = new ApiError(400, 'VALIDATION_FAILED', '', [
      { code: 'invalid_characters', path: ['submittedAnswer'] },
    ]);
    expect(classifyAnswerError(refused)).toBe('rejected');
    expect(answerRefusalOf(refused)).toBe('invalid_characters');
    const tooLong = new ApiError(400, 'VALIDATION_FAILED', '', [
      { code: 'too_long', path: ['submittedAnswer'] },
    ]);
    expect(answerRefusalOf(tooLong)).toBe('too_long');
    // A refusal without a field says nothing more; the screen shows the general words.
    expect(answerRefusalOf(new ApiError(400, 'CLIENT_ERROR', ''))).toBeUndefined();
    expect(answerRefusalOf(new TypeError('Failed to fetch'))).toBeUndefined();
  });
});
