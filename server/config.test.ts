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

describe('database behind a pooler', () => {
  const url = 'postgres://podium@pgbouncer:6432/podium';
  const direct = 'postgres://podium@db:5432/podium';

  it('connects to PostgreSQL directly unless told otherwise', () => {
    expect(loadConfig({ DATABASE_URL: url }).databaseDirectUrl).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: url, DATABASE_POOLER: 'none' }).databaseDirectUrl).toBe(
      undefined,
    );
  });

  it('takes PostgreSQL itself from DATABASE_DIRECT_URL behind a transaction pooler', () => {
    const config = loadConfig({
      DATABASE_URL: url,
      DATABASE_POOLER: 'transaction',
      DATABASE_DIRECT_URL: direct,
    });
    expect(config.databaseUrl).toBe(url);
    expect(config.databaseDirectUrl).toBe(direct);
  });

  it('refuses a pooler without the direct URL, an unknown mode, and a direct URL alone', () => {
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_POOLER: 'transaction' })).toThrow(
      /DATABASE_DIRECT_URL/,
    );
    expect(() =>
      loadConfig({ DATABASE_URL: url, DATABASE_POOLER: 'session', DATABASE_DIRECT_URL: direct }),
    ).toThrow(/DATABASE_POOLER must be none or transaction/);
    expect(() => loadConfig({ DATABASE_URL: url, DATABASE_DIRECT_URL: direct })).toThrow(
      /only with DATABASE_POOLER=transaction/,
    );
    expect(() =>
      loadConfig({ DATABASE_POOLER: 'transaction', DATABASE_DIRECT_URL: direct }),
    ).toThrow(/needs DATABASE_URL/);
  });
});
