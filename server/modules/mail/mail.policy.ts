import type { Actor } from '../../lib/auth-guard.js';

/** Only platform admins see who was mailed what, and resend. */
export function canManageMail(actor: Actor): boolean {
  return actor.type === 'admin';
}
