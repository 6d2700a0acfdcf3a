import { and, asc, count, eq, inArray, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { mailOutbox } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import {
  compileOrder,
  compileWhere,
  type ListResource,
  type ParsedFilter,
} from '../filter/index.js';
import { uuidv7 } from '../ids.js';
import { isRequestedTemplate, type MailTemplate, REQUESTED_TEMPLATES } from './templates.js';

export type OutboxRow = typeof mailOutbox.$inferSelect;
export type OutboxState = OutboxRow['state'];

/** What a caller asks to be sent; the worker makes any one-time link when it sends. */
export type MailRequest = {
  template: MailTemplate;
  to: string;
  /** The account the mail is about; unset when the worker resolves the address itself. */
  userId?: string | null;
  locale: string | null | undefined;
  /** Non-secret values the template needs (`origin`, `minutes`, a provider's label). */
  params?: Record<string, string>;
};

const HOUR_MS = 3_600_000;
/** States a worker may take a row in (when it is due). */
const WAITING: OutboxState[] = ['queued', 'sending', 'retrying'];

export type MailOutbox = ReturnType<typeof createMailOutbox>;

/**
 * The one owner of the `mail_outbox` table. `enqueue` runs in the caller's transaction, so a
 * mail exists exactly when what caused it was committed.
 */
export function createMailOutbox({
  clock,
  maxPerRecipientPerHour,
  onEnqueued = () => {},
  alsoNotify,
}: {
  clock: Clock;
  maxPerRecipientPerHour: number;
  /** Told after each enqueue (the worker of this process looks for mail soon after). */
  onEnqueued?: () => void;
  /**
   * Runs in the mail's transaction for every mail queued: the notifications module writes
   * the bell's notification of the same event, so mail and bell always agree.
   */
  alsoNotify?: (tx: Db, request: MailRequest) => Promise<void>;
}) {
  return {
    /**
     * Adds a mail for the worker. A requested mail (`REQUESTED_TEMPLATES`: what anyone can ask
     * for) past its recipient's hourly limit of requested mails is stored as `limited` (admins see it and may resend it) instead of being sent. The same
     * statements run whoever the recipient is, so the caller's answer tells nothing.
     */
    async enqueue(db: Db, request: MailRequest): Promise<string> {
      const now = clock.now();
      const to = request.to.trim().toLowerCase();
      return db.transaction(async (tx) => {
        let state: OutboxState = 'queued';
        if (isRequestedTemplate(request.template)) {
          // Two requests for one address at once would both see room under the limit.
          await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`mail:${to}`}))`);
          // At most `limit` rows are read, so a flooded address costs no more than another.
          const recent = await tx
            .select({ id: mailOutbox.id })
            .from(mailOutbox)
            .where(
              and(
                eq(mailOutbox.toAddress, to),
                // System mails (score changes, reminders) neither count nor are held.
                inArray(mailOutbox.template, [...REQUESTED_TEMPLATES]),
                sql`${mailOutbox.createdAt} > ${new Date(now.getTime() - HOUR_MS)}`,
                ne(mailOutbox.state, 'limited'),
              ),
            )
            .limit(maxPerRecipientPerHour);
          if (recent.length >= maxPerRecipientPerHour) state = 'limited';
        }
        const id = uuidv7();
        await tx.insert(mailOutbox).values({
          id,
          template: request.template,
          toAddress: to,
          userId: request.userId ?? null,
          locale: request.locale ?? null,
          params: request.params ?? {},
          state,
          nextAttemptAt: now,
          createdAt: now,
          updatedAt: now,
        });
        await alsoNotify?.(tx, request);
        onEnqueued();
        return id;
      });
    },
  };
}

/**
 * Takes up to `limit` due mails for this worker: each is marked `sending` until `leaseUntil`
 * (if the process dies meanwhile, another worker takes it again then). Rows another worker
 * holds are skipped, so every instance may run a worker.
 */
export async function claimDue(
  db: Db,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<OutboxRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(inArray(mailOutbox.state, WAITING), lte(mailOutbox.nextAttemptAt, now)))
      .orderBy(asc(mailOutbox.nextAttemptAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(mailOutbox)
      .set({
        state: 'sending',
        attempts: sql`${mailOutbox.attempts} + 1`,
        nextAttemptAt: leaseUntil,
        updatedAt: now,
      })
      .where(
        inArray(
          mailOutbox.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
  });
}

/** Records the outcome of one attempt (only while this worker still holds the row). */
export async function settle(
  db: Db,
  id: string,
  outcome:
    | { state: 'sent'; at: Date }
    | { state: 'retrying'; at: Date; nextAttemptAt: Date; error: string }
    | { state: 'failed'; at: Date; error: string },
): Promise<void> {
  await db
    .update(mailOutbox)
    .set({
      state: outcome.state,
      updatedAt: outcome.at,
      sentAt: outcome.state === 'sent' ? outcome.at : null,
      lastError: outcome.state === 'sent' ? null : outcome.error.slice(0, 500),
      ...(outcome.state === 'retrying' ? { nextAttemptAt: outcome.nextAttemptAt } : {}),
    })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.state, 'sending')));
}

/** A mail with nobody to send it to (a reset asked for an unknown address) leaves no trace. */
export async function discard(db: Db, id: string): Promise<void> {
  await db.delete(mailOutbox).where(eq(mailOutbox.id, id));
}

/** Sent and limited mails older than `before` are forgotten; failed ones stay for admins. */
export async function prune(db: Db, before: Date): Promise<void> {
  await db
    .delete(mailOutbox)
    .where(
      and(inArray(mailOutbox.state, ['sent', 'limited']), sql`${mailOutbox.updatedAt} < ${before}`),
    );
}

/** Every mail to a person or their address goes when they are deleted or anonymised. */
export async function forgetRecipient(db: Db, userId: string, address: string): Promise<void> {
  await db
    .delete(mailOutbox)
    .where(or(eq(mailOutbox.userId, userId), eq(mailOutbox.toAddress, address.toLowerCase())));
}

/** The admins' list of mails: newest first by default. */
export const outboxResource: ListResource = {
  name: 'mail',
  fields: {
    _id: { column: mailOutbox.id, type: 'uuid' },
    to: { column: mailOutbox.toAddress, type: 'string' },
    template: { column: mailOutbox.template, type: 'string' },
    state: { column: mailOutbox.state, type: 'string' },
    attempts: { column: mailOutbox.attempts, type: 'number' },
    createdAt: { column: mailOutbox.createdAt, type: 'date' },
    updatedAt: { column: mailOutbox.updatedAt, type: 'date' },
    sentAt: { column: mailOutbox.sentAt, type: 'date' },
  },
  defaultOrder: ['createdAt DESC'],
};

export async function listOutbox(db: Db, filter: ParsedFilter): Promise<OutboxRow[]> {
  return db
    .select()
    .from(mailOutbox)
    .where(filter.where ? compileWhere(filter.where, outboxResource) : undefined)
    .orderBy(...compileOrder(filter.order, outboxResource))
    .limit(filter.limit)
    .offset(filter.skip);
}

export async function countOutbox(db: Db, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(mailOutbox).where(where);
  return row?.n ?? 0;
}

/** How many mails wait, retry or failed: what the readiness check reports. */
export async function outboxTotals(db: Db): Promise<Record<OutboxState, number>> {
  const rows = await db
    .select({ state: mailOutbox.state, n: count() })
    .from(mailOutbox)
    .groupBy(mailOutbox.state);
  const totals = { queued: 0, sending: 0, retrying: 0, sent: 0, failed: 0, limited: 0 };
  for (const r of rows) totals[r.state] = r.n;
  return totals;
}

/**
 * Puts a mail back in the queue for a new series of attempts (a fresh link is made when it is
 * sent). A mail being sent right now is left alone: undefined.
 */
export async function requeue(db: Db, id: string, now: Date): Promise<OutboxRow | undefined> {
  const [row] = await db
    .update(mailOutbox)
    .set({ state: 'queued', attempts: 0, nextAttemptAt: now, lastError: null, updatedAt: now })
    .where(and(eq(mailOutbox.id, id), ne(mailOutbox.state, 'sending')))
    .returning();
  return row;
}

export async function findOutboxRow(db: Db, id: string): Promise<OutboxRow | undefined> {
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  return row;
}
