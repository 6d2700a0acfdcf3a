import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import type { OutboxRow } from '../../lib/mail/outbox.js';
import type { MailPreparer } from '../../lib/mail/worker.js';
import { defaultOrigin } from '../../lib/origin.js';
import { randomToken, sha256 } from '../../lib/secrets.js';
import type { UsersService } from '../users/index.js';
import { canSignIn } from './auth.policy.js';
import * as repo from './auth.repo.js';

type Deps = { db: Db; config: Config; clock: Clock; users: UsersService };

/**
 * The auth mails whose one-time link is made when the mail worker sends them, so the outbox
 * never stores a usable code (only its hash lives in auth_links). A retry or an admin's resend
 * gets a fresh link.
 */
export function authMailPreparers({ db, config, clock, users }: Deps) {
  const link = async (userId: string, purpose: repo.LinkPurpose, ttlMs: number) => {
    const code = randomToken();
    await repo.insertLink(db, {
      userId,
      purpose,
      codeHash: sha256(code),
      expiresAt: new Date(clock.now().getTime() + ttlMs),
    });
    return code;
  };
  // The origin stored with the mail when it was queued; the configured default otherwise.
  const origin = (row: OutboxRow) => row.params.origin ?? defaultOrigin(config);

  const confirmEmail: MailPreparer = async (row) => {
    const user = row.userId ? await users.accountById(row.userId) : undefined;
    // Confirmed meanwhile (another link was used) or gone: nothing to confirm.
    if (!canSignIn(user) || user.emailConfirmedAt) return null;
    const code = await link(user.id, 'confirm', config.links.confirmTtlHours * 3_600_000);
    return {
      to: user.email,
      template: 'confirm-email',
      locale: user.uiLocale,
      params: { link: `${origin(row)}/?uid=${user.id}&code=${code}` },
    };
  };

  const resetPassword: MailPreparer = async (row) => {
    const user = row.userId
      ? await users.accountById(row.userId)
      : await users.accountByEmail(row.toAddress);
    // Nobody can receive or use a link to an anonymised account's placeholder address.
    if (!canSignIn(user)) return null;
    const minutes = config.links.resetTtlMinutes;
    const code = await link(user.id, 'reset', minutes * 60_000);
    return {
      to: user.email,
      template: 'reset-password',
      locale: user.uiLocale ?? row.locale,
      params: {
        link: `${origin(row)}/?mode=reset&uid=${user.id}&code=${code}`,
        minutes: String(minutes),
      },
    };
  };

  return { 'confirm-email': confirmEmail, 'reset-password': resetPassword };
}
