// The signed-in user's own security: changing their password and seeing or ending the
// sessions their account is open in. Nobody else's sessions are reachable from here.
import type { AccountSession, ChangePasswordInput } from '../../../shared/schemas/auth.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import type { Clock } from '../../lib/clock.js';
import { fieldError, notFound } from '../../lib/errors.js';
import { hashPassword, verifyPassword } from '../../lib/secrets.js';
import type { UsersService } from '../users/index.js';
import * as repo from './auth.repo.js';
import { assertGoodPassword } from './password-policy.js';
import type { ThrottleService } from './throttle.service.js';

export type AccountDeps = {
  db: Db;
  clock: Clock;
  users: Pick<UsersService, 'lockAccount' | 'updateAccount'>;
  throttle: Pick<ThrottleService, 'forgetAccount'>;
};

export function accountService({ db, clock, users, throttle }: AccountDeps) {
  return {
    /**
     * Sets a new password when the current one is right and the new one passes sign-up's
     * rules; every other session of the account ends, this one stays. A wrong current
     * password changes nothing.
     */
    async changePassword(actor: Actor, input: ChangePasswordInput): Promise<{ ended: number }> {
      assertGoodPassword(input.password, actor.email);
      const passwordHash = await hashPassword(input.password);
      return db.transaction(async (tx) => {
        const row = await users.lockAccount(tx, actor.id);
        if (!row) throw notFound('user');
        if (!(await verifyPassword(row.passwordHash, input.currentPassword))) {
          throw fieldError({ currentPassword: ['wrong_password'] });
        }
        const now = clock.now();
        await users.updateAccount(actor.id, { passwordHash }, tx);
        const ended = await repo.revokeOtherSessions(tx, actor.id, actor.sessionId, now);
        await throttle.forgetAccount(row.email, tx);
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'user.password.change',
          entityType: 'user',
          entityId: actor.id,
          after: { endedSessions: ended },
        });
        return { ended };
      });
    },

    /** The caller's live sessions, the one they use marked. */
    async listSessions(actor: Actor): Promise<AccountSession[]> {
      const rows = await repo.listLiveSessions(db, actor.id, clock.now());
      return rows.map((s) => ({
        _id: s.id,
        userAgent: s.userAgent,
        createdAt: s.createdAt.toISOString(),
        lastSeenAt: s.lastSeenAt.toISOString(),
        current: s.id === actor.sessionId,
      }));
    },

    /** Ends one of the caller's own sessions; another user's (or an ended one) is not found. */
    async endSession(actor: Actor, sessionId: string): Promise<{ ended: number }> {
      return db.transaction(async (tx) => {
        const ended = await repo.revokeOwnSession(tx, actor.id, sessionId, clock.now());
        if (!ended) throw notFound('session');
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'user.session.end',
          entityType: 'user',
          entityId: actor.id,
          after: { sessionId },
        });
        return { ended: 1 };
      });
    },

    /** Ends every session of the caller except the one this request came with. */
    async endOtherSessions(actor: Actor): Promise<{ ended: number }> {
      return db.transaction(async (tx) => {
        const ended = await repo.revokeOtherSessions(tx, actor.id, actor.sessionId, clock.now());
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'user.session.end-others',
          entityType: 'user',
          entityId: actor.id,
          after: { ended },
        });
        return { ended };
      });
    },
  };
}

export type AccountService = ReturnType<typeof accountService>;
