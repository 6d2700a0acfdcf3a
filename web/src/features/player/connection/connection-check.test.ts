import { describe, expect, it } from 'vitest';
import {
  clockLevel,
  latencyLevel,
  median,
  offsetFromDateHeader,
  verdictOf,
} from './connection-check.js';

describe('connection check', () => {
  it('judges latency by the median round trip and lost requests', () => {
    expect(median([30, 10, 20])).toBe(20);
    expect(median([10, 20, 30, 40])).toBe(25);
    expect(latencyLevel([20, 25, 900], 0)).toBe('ok');
    expect(latencyLevel([20, 25, 30], 1)).toBe('warn');
    expect(latencyLevel([400, 500, 450], 0)).toBe('warn');
    expect(latencyLevel([2000, 1800, 1600], 0)).toBe('fail');
    expect(latencyLevel([], 10)).toBe('fail');
  });

  it('reads the clock offset from the Date header, to the second', () => {
    const sent = Date.parse('2026-11-23T09:00:00.100Z');
    const received = sent + 200;
    // The server's clock is an hour behind this computer's.
    const offset = offsetFromDateHeader('Mon, 23 Nov 2026 08:00:00 GMT', sent, received);
    expect(offset).toBeCloseTo(-3_600_000 + 500 - 200, -3);
    expect(clockLevel(offset)).toBe('warn');
    expect(clockLevel(offsetFromDateHeader('Mon, 23 Nov 2026 09:00:00 GMT', sent, received))).toBe(
      'ok',
    );
    expect(offsetFromDateHeader(null, sent, received)).toBeUndefined();
    expect(offsetFromDateHeader('garbage', sent, received)).toBeUndefined();
  });

  it('is ready only when nothing failed', () => {
    expect(verdictOf(['ok', 'ok'])).toBe('ready');
    expect(verdictOf(['ok', 'warn'])).toBe('remarks');
    expect(verdictOf(['warn', 'fail', 'ok'])).toBe('notReady');
  });
});
