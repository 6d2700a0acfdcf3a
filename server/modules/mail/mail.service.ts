import type { OutboxMail } from '../../../shared/schemas/mail.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import type { Clock } from '../../lib/clock.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { compileWhere, parseFilter, parseWhere } from '../../lib/filter/index.js';
import {
  countOutbox,
  findOutboxRow,
  listOutbox,
  type OutboxRow,
  outboxResource,
  requeue,
} from '../../lib/mail/outbox.js';
import { canManageMail } from './mail.policy.js';

type Deps = { db: Db; clock: Clock; wake: () => void };

const toDto = (row: OutboxRow): OutboxMail => ({
  _id: row.id,
  to: row.toAddress,
  template: row.template,
  state: row.state,
  attempts: row.attempts,
  lastError: row.lastError,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  sentAt: row.sentAt?.toISOString() ?? null,
  nextAttemptAt: row.state === 'retrying' ? row.nextAttemptAt.toISOString() : null,
});

/** The mail outbox for admins: what was sent, what is retried, what failed, and resend. */
export function mailService({ db, clock, wake }: Deps) {
  const check = (actor: Actor) => {
    if (!canManageMail(actor)) throw forbidden();
  };
  return {
    /** A page of mails, newest first unless `order` says otherwise. */
    async listMail(actor: Actor, rawFilter: string | undefined): Promise<OutboxMail[]> {
      const filter = parseFilter(rawFilter, outboxResource);
      check(actor);
      return (await listOutbox(db, filter)).map(toDto);
    },

    async countMail(actor: Actor, rawWhere: string | undefined): Promise<{ count: number }> {
      const where = parseWhere(rawWhere ?? '', outboxResource);
      check(actor);
      return { count: await countOutbox(db, where && compileWhere(where, outboxResource)) };
    },

    /**
     * Queues the mail again for a new series of attempts (a new link if it carries one) and
     * audits who did it. A mail being sent right now is answered as it is.
     */
    async resend(actor: Actor, id: string): Promise<OutboxMail> {
      check(actor);
      const row = await db.transaction(async (tx) => {
        const found = await findOutboxRow(tx, id);
        if (!found) throw notFound('mail');
        const again = await requeue(tx, id, clock.now());
        if (!again) return found;
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'mail.resend',
          entityType: 'mail',
          entityId: id,
          before: { state: found.state, attempts: found.attempts },
        });
        return again;
      });
      wake();
      return toDto(row);
    },
  };
}

export type MailService = ReturnType<typeof mailService>;
