import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** 32 random bytes, URL-safe: session tokens and e-mail link codes. */
export const randomToken = () => randomBytes(32).toString('base64url');

/** Tokens are stored only as hashes, so a database leak does not leak sessions. */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. (2 is Algorithm.Argon2id, a const enum.)
const ARGON = { algorithm: 2 as const, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, ARGON);

let dummyHash: Promise<string> | undefined;

/** Verifies a password; with no stored hash it still spends the same time, then fails. */
export async function verifyPassword(stored: string | null | undefined, password: string) {
  if (!stored) {
    dummyHash ??= hashPassword(randomToken());
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
