import type { Actor } from '../../lib/auth-guard.js';
import type { UserRow } from './users.repo.js';

/** A user edits only their own profile unless they are an admin. */
export function canEditProfile(actor: Actor, user: Pick<UserRow, 'id'>): boolean {
  return actor.type === 'admin' || actor.id === user.id;
}

/** Only platform admins correct the type of an account (student ↔ teacher). */
export function canChangeAccountType(actor: Actor): boolean {
  return actor.type === 'admin';
}
