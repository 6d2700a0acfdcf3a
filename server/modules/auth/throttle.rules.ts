import { isIPv4, isIPv6 } from 'node:net';
import type { Config } from '../../config.js';

/**
 * How sign-in guessing is slowed. Three counters see each sign-in that is not from a known
 * browser: the account at this address (`pair`), the account from anywhere (`account`) and the
 * address (`address`, counting the accounts it failed on). Up to a counter's free number of
 * failures nothing waits; after that each further try waits 1 s, 2 s, 4 s, … (up to
 * maxDelaySeconds) after the counter's last failure. Nothing is ever locked: the owner waits
 * seconds, a guesser waits the longest delay between guesses.
 */
export type Scope = 'pair' | 'account' | 'address';
export type Rule = { free: number; maxDelaySeconds: number };
export type ThrottleKey = {
  key: string;
  scope: Scope;
  email: string | null;
  address: string | null;
};

export const rulesOf = (auth: Config['auth']): Record<Scope, Rule> => ({
  pair: { free: auth.pairFailuresBeforeDelay, maxDelaySeconds: auth.maxDelaySeconds },
  account: { free: auth.accountFailuresBeforeDelay, maxDelaySeconds: auth.maxDelaySeconds },
  address: { free: auth.addressAccountsBeforeDelay, maxDelaySeconds: auth.maxDelaySeconds },
});

// 2^30 s is decades: beyond it the doubling only risks overflow (throttle.repo.ts caps alike).
const MAX_DOUBLINGS = 30;

/**
 * Until when a counter with `failures` makes the next try wait, or null when it does not.
 * throttle.repo.ts states the same rule in SQL, where the check happens.
 */
export function blockedUntil(failures: number, lastFailureAt: Date, rule: Rule): Date | null {
  if (failures < rule.free) return null;
  const seconds = Math.min(
    2 ** Math.min(failures - rule.free, MAX_DOUBLINGS),
    rule.maxDelaySeconds,
  );
  return new Date(lastFailureAt.getTime() + seconds * 1000);
}

/**
 * The client address a counter is kept for: an IPv4 address as it is (also when written as
 * IPv6), an IPv6 address by its /64 network, since one home or phone gets a whole /64.
 */
export function addressOf(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::')
    ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/** The three counters a sign-in attempt for `email` from `address` takes a place in. */
export function keysOf(email: string, address: string): Record<Scope, ThrottleKey> {
  return {
    pair: { key: `pair:${address}:${email}`, scope: 'pair', email, address },
    account: { key: `account:${email}`, scope: 'account', email, address: null },
    address: { key: `address:${address}`, scope: 'address', email: null, address },
  };
}

/** Browser tokens are 32 random bytes or more, URL-safe base64; anything else is ignored. */
export const isDeviceToken = (value: unknown): value is string =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{43,128}$/.test(value);
