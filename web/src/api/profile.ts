import type { ProfilePatch, User } from '../../../shared/schemas/users.js';
import { api } from './client.js';

/** PATCH /user-mgmt/users/{email}: only the fields sent change. */
export const patchProfile = (email: string, body: ProfilePatch) =>
  api<User>(`/user-mgmt/users/${encodeURIComponent(email)}`, { method: 'PATCH', body });
