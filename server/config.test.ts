import { describe, expect, it } from 'vitest';
import { loadConfig, retiredVariables } from './config.js';

describe('sign-in throttle configuration', () => {
  it('has defaults that slow guessers and let a school lab in', () => {
    expect(loadConfig({}).auth).toEqual({
      pairFailuresBeforeDelay: 5,
      accountFailuresBeforeDelay: 50,
      addressAccountsBeforeDelay: 100,
      maxDelaySeconds: 900,
      failureWindowMinutes: 60,
    });
  });

  it('refuses a window shorter than the longest wait, and zero limits', () => {
    expect(() =>
      loadConfig({ AUTH_MAX_DELAY_SECONDS: '3600', AUTH_FAILURE_WINDOW_MINUTES: '30' }),
    ).toThrow(/AUTH_FAILURE_WINDOW_MINUTES/);
    expect(() => loadConfig({ AUTH_PAIR_FAILURES_BEFORE_DELAY: '0' })).toThrow(/at least 1/);
  });

  it('names the variables that are no longer read', () => {
    expect(retiredVariables({ AUTH_MAX_FAILURES_PER_ACCOUNT: '5' })).toEqual([
      expect.stringContaining('AUTH_PAIR_FAILURES_BEFORE_DELAY'),
    ]);
    expect(retiredVariables({})).toEqual([]);
  });
});
