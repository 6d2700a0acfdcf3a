import type { Actor } from '../../lib/auth-guard.js';

/** Registration completes a student's or teacher's own profile, once. */
export function canRegister(
  actor: Actor,
  user: { id: string; type: string; registered: boolean },
): boolean {
  return actor.id === user.id && user.type !== 'admin' && !user.registered;
}
