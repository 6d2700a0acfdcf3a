import type { Actor } from '../../lib/auth-guard.js';
import { isPlaceholderEmail } from '../users/index.js';

/** Registration completes a student's or teacher's own profile, once. */
export function canRegister(
  actor: Actor,
  user: { id: string; type: string; registered: boolean },
): boolean {
  return actor.id === user.id && user.type !== 'admin' && !user.registered;
}

/**
 * Whether an account may be signed into at all, by any path (password, one-time link, reset,
 * OpenID Connect, a session): not deleted, and not anonymised — an anonymised or deleted
 * account has a placeholder address (`anonim+…@podium.invalid`) and is answered like an
 * unknown one.
 */
export function canSignIn<T extends { email: string; deletedAt: Date | null }>(
  account: T | undefined,
): account is T {
  return account !== undefined && account.deletedAt === null && !isPlaceholderEmail(account.email);
}
