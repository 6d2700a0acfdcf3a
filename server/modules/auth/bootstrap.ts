import type { Config } from '../../config.js';
import { uuidv7 } from '../../lib/ids.js';
import type { UsersService } from '../users/users.service.js';
import { hashPassword, randomToken } from './secrets.js';

export type BootstrapResult =
  | { created: false }
  | { created: true; email: string; generatedPassword: string | undefined };

/**
 * On a database with no admin, creates one from ADMIN_EMAIL/ADMIN_PASSWORD, or
 * admin@podium.local with a random password that the caller prints once.
 */
export async function ensureAdmin(users: UsersService, config: Config): Promise<BootstrapResult> {
  if ((await users.countAdmins()) > 0) return { created: false };
  const email = (config.admin.email ?? 'admin@podium.local').trim().toLowerCase();
  const generatedPassword = config.admin.password ? undefined : randomToken().slice(0, 20);
  const passwordHash = await hashPassword(config.admin.password ?? generatedPassword ?? '');
  const existing = await users.accountByEmail(email);
  const fields = {
    passwordHash,
    type: 'admin' as const,
    state: 'active' as const,
    registered: true,
    emailConfirmedAt: new Date(),
  };
  if (existing) await users.updateAccount(existing.id, fields);
  else
    await users.createAccount({
      id: uuidv7(),
      email,
      givenName: 'Admin',
      familyName: 'Podium',
      ...fields,
    });
  return { created: true, email, generatedPassword };
}
