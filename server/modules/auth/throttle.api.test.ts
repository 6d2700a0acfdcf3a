import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../lib/clock.js';
import { buildTestApp, errorCode, type TestApp } from '../../test/app.js';

// Sign-in throttling: the guesser of one account from one address waits longer after each
// failure (never a lock that the account's owner or a school lab would hit), an address is
// slowed only when it fails on many accounts, a browser that signed in before is never
// refused the right password, concurrent guesses are counted one by one, and admins see and
// clear what slows whom.
const API = '/api/v1/auth-service/auth';
const START = new Date('2026-11-23T09:00:00Z');
let now = new Date(START);
const clock: Clock = { now: () => new Date(now) };
const advance = (seconds: number) => {
  now = new Date(now.getTime() + seconds * 1000);
};
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ clock });
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  // Each test starts a day later, so the counters of the ones before have been forgotten.
  now = new Date(now.getTime() + 86_400_000);
});

const newDevice = () => randomBytes(32).toString('base64url');
let lastAddress = 0;
/** A fresh client address for each test (documentation range 203.0.113.0/24). */
const newAddress = () => `203.0.113.${++lastAddress}`;

const login = (email: string, password: string, from: string, device?: string) =>
  t.app.inject({
    method: 'POST',
    url: `${API}/login`,
    payload: { email, password },
    remoteAddress: from,
    headers: device ? { 'podium-device': device } : {},
  });
const retryAfter = (res: Awaited<ReturnType<typeof login>>) =>
  (res.json() as { error: { details?: { retryAfter?: number } } }).error.details?.retryAfter;

describe('one account from one address', () => {
  it('is slowed with growing delays after five failures, not locked', async () => {
    const u = await t.createUser();
    const from = newAddress();
    for (let i = 0; i < 5; i++) {
      expect(errorCode(await login(u.email, `gresit-${i}-xx`, from))).toBe('INVALID_CREDENTIALS');
    }
    for (const wait of [1, 2, 4, 8]) {
      const early = await login(u.email, 'inca-gresit-1', from);
      expect(early.statusCode).toBe(429);
      expect(early.json().error).toMatchObject({
        code: 'TOO_MANY_ATTEMPTS',
        details: { retryAfter: wait },
      });
      advance(wait - 0.5);
      expect(retryAfter(await login(u.email, 'inca-gresit-1', from))).toBe(1);
      advance(0.5);
      expect(errorCode(await login(u.email, 'inca-gresit-1', from))).toBe('INVALID_CREDENTIALS');
    }
    // The owner, elsewhere, is not slowed at all; here, once the wait is over.
    expect((await login(u.email, u.password, newAddress())).statusCode).toBe(200);
    expect(retryAfter(await login(u.email, u.password, from))).toBe(16);
    advance(16);
    expect((await login(u.email, u.password, from)).statusCode).toBe(200);
    // Success forgives: five free tries again.
    for (let i = 0; i < 5; i++) {
      expect(errorCode(await login(u.email, 'gresit-iar-1', from))).toBe('INVALID_CREDENTIALS');
    }
  });

  it('waits at most the longest delay, and forgets after the window', async () => {
    const u = await t.createUser();
    const from = newAddress();
    const { maxDelaySeconds, failureWindowMinutes } = t.config.auth;
    let waited = 0;
    for (let i = 0; i < 60 && waited < maxDelaySeconds; i++) {
      const res = await login(u.email, 'gresit-mereu', from);
      if (res.statusCode !== 429) continue;
      waited = retryAfter(res) ?? 0;
      expect(waited).toBeLessThanOrEqual(maxDelaySeconds);
      advance(waited);
    }
    expect(waited).toBe(maxDelaySeconds);
    // It stays there, failure after failure.
    expect(errorCode(await login(u.email, 'gresit-mereu', from))).toBe('INVALID_CREDENTIALS');
    expect(retryAfter(await login(u.email, 'gresit-mereu', from))).toBe(maxDelaySeconds);
    advance(failureWindowMinutes * 60);
    for (let i = 0; i < 5; i++) {
      expect(errorCode(await login(u.email, 'gresit-mereu', from))).toBe('INVALID_CREDENTIALS');
    }
  });

  it('checks at most five of sixty guesses sent at once', async () => {
    const u = await t.createUser();
    const from = newAddress();
    const all = await Promise.all(
      Array.from({ length: 60 }, (_, i) => login(u.email, `ghicit-${i}-xx`, from)),
    );
    const codes = all.map(errorCode);
    expect(codes.filter((c) => c === 'INVALID_CREDENTIALS')).toHaveLength(5);
    expect(codes.filter((c) => c === 'TOO_MANY_ATTEMPTS')).toHaveLength(55);
  });
});

describe('a school lab behind one address', () => {
  it('signs in sixty students who mistype, while one of them guesses a classmate', async () => {
    const lab = newAddress();
    const students = await Promise.all(Array.from({ length: 60 }, () => t.createUser()));
    const victim = await t.createUser();
    for (let i = 0; i < 30; i++) await login(victim.email, `ghicit-${i}-xx`, lab);
    for (const s of students) {
      expect(errorCode(await login(s.email, 'parola-gresita', lab))).toBe('INVALID_CREDENTIALS');
      expect(errorCode(await login(s.email, 'alta-gresita', lab))).toBe('INVALID_CREDENTIALS');
      expect((await login(s.email, s.password, lab)).statusCode).toBe(200);
    }
  });
});

describe('an address guessing across many accounts', () => {
  it('is slowed once it has failed on many accounts, and no other address is', async () => {
    const from = newAddress();
    const limit = t.config.auth.addressAccountsBeforeDelay;
    const known = await t.createUser();
    const device = newDevice();
    expect((await login(known.email, known.password, from, device)).statusCode).toBe(200);
    for (let i = 0; i < limit; i++) {
      const res = await login(`nimeni-${i}@example.ro`, 'parola-ghicita', from);
      expect(errorCode(res)).toBe('INVALID_CREDENTIALS');
    }
    const next = await login('inca-unul@example.ro', 'parola-ghicita', from);
    expect(next.statusCode).toBe(429);
    expect(retryAfter(next)).toBe(1);
    const u = await t.createUser();
    expect((await login(u.email, u.password, newAddress())).statusCode).toBe(200);
    // A browser that signed in before is not slowed by its address.
    expect((await login(known.email, known.password, from, device)).statusCode).toBe(200);
  });
});

describe('a browser that signed in before', () => {
  it('is never refused the right password, but still needs it', async () => {
    const u = await t.createUser();
    const device = newDevice();
    const lab = newAddress();
    expect((await login(u.email, u.password, lab, device)).statusCode).toBe(200);
    // A classmate at the next desk (same address, another browser) guesses.
    for (let i = 0; i < 12; i++) await login(u.email, `ghicit-${i}-xx`, lab);
    expect((await login(u.email, u.password, lab)).statusCode).toBe(429);
    // Someone else's browser token proves nothing for this account.
    const other = await t.createUser();
    const otherDevice = newDevice();
    expect((await login(other.email, other.password, lab, otherDevice)).statusCode).toBe(200);
    expect((await login(u.email, u.password, lab, otherDevice)).statusCode).toBe(429);
    // The owner's own browser: a wrong password is still wrong, the right one signs in.
    expect(errorCode(await login(u.email, 'gresit-aici', lab, device))).toBe('INVALID_CREDENTIALS');
    expect((await login(u.email, u.password, lab, device)).statusCode).toBe(200);
  });

  it('loses that right after five failures of its own, even sent at once', async () => {
    const u = await t.createUser();
    const device = newDevice();
    const from = newAddress();
    expect((await login(u.email, u.password, from, device)).statusCode).toBe(200);
    const all = await Promise.all(
      Array.from({ length: 60 }, (_, i) => login(u.email, `ghicit-${i}-xx`, from, device)),
    );
    // Five on the browser's own count, then five more as any browser at that address.
    expect(all.map(errorCode).filter((c) => c === 'INVALID_CREDENTIALS')).toHaveLength(10);
    expect((await login(u.email, u.password, from, device)).statusCode).toBe(429);
  });

  it('ignores a malformed browser token', async () => {
    const u = await t.createUser();
    const from = newAddress();
    expect((await login(u.email, u.password, from, 'scurt')).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) await login(u.email, `ghicit-${i}-xx`, from, 'scurt');
    expect((await login(u.email, u.password, from, 'scurt')).statusCode).toBe(429);
  });
});

describe('throttles for admins', () => {
  it('lists who is slowed and lets an admin clear it, audited; nobody else', async () => {
    const u = await t.createUser();
    const from = newAddress();
    for (let i = 0; i < 6; i++) await login(u.email, `ghicit-${i}-xx`, from);
    const admin = await t.createUser({ type: 'admin' });
    const device = newDevice();
    const adminLogin = await login(admin.email, admin.password, newAddress(), device);
    const headers = {
      authorization: `Bearer ${adminLogin.json().token}`,
      userid: adminLogin.json().userId,
    };
    const list = await t.app.inject({ url: `${API}/throttles`, headers });
    expect(list.statusCode).toBe(200);
    const rows = list.json() as {
      _id: string;
      scope: string;
      email: string | null;
      address: string | null;
      failures: number;
      blockedUntil: string | null;
    }[];
    const pair = rows.find((r) => r.scope === 'pair' && r.email === u.email);
    expect(pair).toMatchObject({ address: from, failures: 5 });
    expect(pair?.blockedUntil).toBe(new Date(now.getTime() + 1000).toISOString());
    // The address has failed on one account; the account, five times from anywhere.
    expect(rows.find((r) => r.scope === 'address' && r.address === from)).toMatchObject({
      failures: 1,
    });
    expect(rows.find((r) => r.scope === 'account' && r.email === u.email)).toMatchObject({
      failures: 5,
    });

    for (const who of [await t.createUser({ type: 'teacher' }), await t.createUser()]) {
      const h = await t.login(who.email, who.password);
      expect((await t.app.inject({ url: `${API}/throttles`, headers: h })).statusCode).toBe(403);
      const clear = await t.app.inject({
        method: 'DELETE',
        url: `${API}/throttles/${pair?._id}`,
        headers: h,
      });
      expect(clear.statusCode).toBe(403);
    }
    expect((await t.app.inject({ url: `${API}/throttles` })).statusCode).toBe(401);

    const cleared = await t.app.inject({
      method: 'DELETE',
      url: `${API}/throttles/${pair?._id}`,
      headers,
    });
    expect(cleared.statusCode).toBe(200);
    expect(errorCode(await login(u.email, 'inca-o-data', from))).toBe('INVALID_CREDENTIALS');
    const audit = await t.database.db.query.auditEvents.findMany({
      where: (e, { eq }) => eq(e.action, 'auth.throttle.clear'),
    });
    expect(audit).toEqual([
      expect.objectContaining({
        actorId: admin.id,
        entityType: 'auth_throttle',
        before: expect.objectContaining({ scope: 'pair', email: u.email, address: from }),
      }),
    ]);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `${API}/throttles/${pair?._id}`,
      headers,
    });
    expect(again.statusCode).toBe(404);
  });
});
