import { describe, expect, it } from 'vitest';
import { addressOf, blockedUntil, isDeviceToken } from './throttle.rules.js';

describe('sign-in throttle rules', () => {
  it('doubles the wait after the free failures, up to the longest', () => {
    const last = new Date('2026-11-23T09:00:00Z');
    const rule = { free: 5, maxDelaySeconds: 900 };
    const wait = (failures: number) => {
      const until = blockedUntil(failures, last, rule);
      return until ? (until.getTime() - last.getTime()) / 1000 : 0;
    };
    expect([4, 5, 6, 7, 8, 14, 15, 500, 100_000].map(wait)).toEqual([
      0, 1, 2, 4, 8, 512, 900, 900, 900,
    ]);
  });

  it('counts an IPv6 client by its /64 network and an IPv4 one as it is', () => {
    expect(addressOf('203.0.113.7')).toBe('203.0.113.7');
    expect(addressOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressOf('2001:DB8::1')).toBe('2001:db8:0:0::/64');
    expect(addressOf('::1')).toBe('0:0:0:0::/64');
    expect(addressOf(undefined)).toBe('unknown');
  });

  it('takes only long URL-safe browser tokens', () => {
    expect(isDeviceToken('a'.repeat(43))).toBe(true);
    expect(isDeviceToken('a'.repeat(42))).toBe(false);
    expect(isDeviceToken(`${'a'.repeat(43)}=`)).toBe(false);
    expect(isDeviceToken(['a'.repeat(43)])).toBe(false);
  });
});
