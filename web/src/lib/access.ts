import type { UserType } from '../../../shared/constants.js';
import type { User } from '../../../shared/schemas/users.js';

export type Access = {
  /** Allowed types; undefined means anyone, signed in or not. */
  roles?: readonly UserType[];
  /** Needs a completed registration (true), or must not have one yet (false). */
  registered?: boolean;
  /** Needs an active account. */
  active?: boolean;
};

/** Whether a user (or a guest) passes a route's conditions of SPEC.md §2. */
export function mayEnter(user: User | undefined, access: Access): boolean {
  if (access.roles === undefined) return true;
  if (!user || !access.roles.includes(user.type)) return false;
  // Admins are made from the command line and never fill in a registration form.
  const registered = user.registered || user.type === 'admin';
  if (access.registered !== undefined && registered !== access.registered) return false;
  if (access.active && user.state !== 'active') return false;
  return true;
}
