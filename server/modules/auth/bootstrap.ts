import { MIN_PASSWORD_LENGTH } from '../../../shared/constants.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import { uuidv7 } from '../../lib/ids.js';
import { hashPassword, randomToken } from '../../lib/secrets.js';
import type { UsersService } from '../users/index.js';
import { passwordProblem } from './password-policy.js';

export type BootstrapResult =
  | { created: false }
  | { created: true; email: string; generatedPassword: string | undefined };

/** Where the first admin's credentials are announced (the server's pino logger). */
export type BootstrapLog = { warn(obj: object, msg: string): void };

type AdminDeps = { db: Db; users: UsersService };

/**
 * Why an admin's chosen password (ADMIN_PASSWORD, `npm run admin -- --password`) is refused,
 * or undefined: the rules of every password set through the API.
 */
export function adminPasswordProblem(password: string, email: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `The password needs at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (passwordProblem(password, email))
    return 'The password is too easy to guess (a common password, a plain run such as 12345678, or the e-mail address).';
  return undefined;
}

const adminFields = (passwordHash: string | undefined, emailConfirmedAt: Date) => ({
  type: 'admin' as const,
  state: 'active' as const,
  registered: true,
  emailConfirmedAt,
  ...(passwordHash ? { passwordHash } : {}),
});

/**
 * On a database with no admin, creates one from ADMIN_EMAIL/ADMIN_PASSWORD, or
 * admin@podium.local with a random password, and logs it; the password is logged only by
 * the start that created the account. Instances starting together create exactly one admin.
 */
export async function ensureAdmin({
  db,
  users,
  config,
  log,
}: AdminDeps & { config: Config; log: BootstrapLog }): Promise<BootstrapResult> {
  if ((await users.countAdmins()) > 0) return { created: false };
  const email = (config.admin.email ?? 'admin@podium.local').trim().toLowerCase();
  const chosen = config.admin.password && adminPasswordProblem(config.admin.password, email);
  if (chosen) throw new Error(`ADMIN_PASSWORD: ${chosen}`);
  const generatedPassword = config.admin.password ? undefined : randomToken().slice(0, 20);
  const passwordHash = await hashPassword(config.admin.password ?? generatedPassword ?? '');
  const created = await db.transaction(async (tx) => {
    await users.lockAdminBootstrap(tx);
    // Another instance may have created the admin while this one waited for the lock.
    if ((await users.countAdmins(tx)) > 0) return false;
    const existing = await users.accountByEmail(email, tx);
    const fields = adminFields(passwordHash, existing?.emailConfirmedAt ?? new Date());
    const id = existing?.id ?? uuidv7();
    if (existing) await users.updateAccount(id, fields, tx);
    else {
      const row = await users.createAccount(
        { id, email, givenName: 'Admin', familyName: 'Podium', ...fields },
        tx,
      );
      // The address belongs to a deleted account: refuse loudly rather than start adminless.
      if (!row) throw new Error(`Cannot create the first admin: ${email} is taken`);
    }
    await appendAudit(tx, {
      actorId: null,
      action: 'user.admin.bootstrap',
      entityType: 'user',
      entityId: id,
      before: existing ? { type: existing.type, state: existing.state } : null,
      after: { type: 'admin', state: 'active' },
      reason: 'first start',
    });
    return true;
  });
  if (!created) return { created: false };
  log.warn(
    { email },
    generatedPassword
      ? `Created the first admin ${email} with password ${generatedPassword} (shown only now; change it from the login page with "forgot password")`
      : `Created the first admin ${email} from ADMIN_EMAIL/ADMIN_PASSWORD`,
  );
  return { created: true, email, generatedPassword };
}

export type PromoteResult =
  | { outcome: 'promoted' | 'created'; userId: string }
  | { outcome: 'not_found' };

/**
 * `npm run admin`: makes the account of `email` an active, registered, confirmed admin
 * (with a new password when one is given), or creates it when a password is given.
 * The change is audited.
 */
export async function promoteAdmin(
  { db, users }: AdminDeps,
  input: { email: string; password?: string },
): Promise<PromoteResult> {
  const email = input.email.trim().toLowerCase();
  const refused = input.password && adminPasswordProblem(input.password, email);
  if (refused) throw new Error(refused);
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  return db.transaction(async (tx) => {
    const existing = await users.accountByEmail(email, tx);
    if (!existing && !passwordHash) return { outcome: 'not_found' as const };
    const fields = adminFields(passwordHash, existing?.emailConfirmedAt ?? new Date());
    const id = existing?.id ?? uuidv7();
    if (existing) await users.updateAccount(id, fields, tx);
    else if (!(await users.createAccount({ id, email, ...fields }, tx))) {
      throw new Error(`${email} belongs to a deleted account`);
    }
    await appendAudit(tx, {
      actorId: null,
      action: existing ? 'user.promote.admin' : 'user.create.admin',
      entityType: 'user',
      entityId: id,
      before: existing ? { type: existing.type, state: existing.state } : null,
      after: { type: 'admin', state: 'active' },
      reason: 'command line',
    });
    return { outcome: existing ? ('promoted' as const) : ('created' as const), userId: id };
  });
}
