import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.js';
import { classifyAnswerError, isTransient } from './player-session.js';

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
