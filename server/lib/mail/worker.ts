import type { Db } from '../../db/client.js';
import type { Clock } from '../clock.js';
import type { Mailer, MailMessage } from './mailer.js';
import { claimDue, discard, type OutboxRow, prune, settle } from './outbox.js';
import type { MailTemplate } from './templates.js';

/**
 * Turns an outbox row into the mail to send, or null when there is nothing to send (a reset
 * asked for an address without an account). Modules that mail one-time links make the link
 * here, at send time, so no usable code is ever stored in the outbox.
 */
export type MailPreparer = (row: OutboxRow) => Promise<MailMessage | null>;

type Log = {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
};

export type MailWorkerDeps = {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  log: Log;
  maxAttempts: number;
  /** How long a claimed row stays this worker's before another may take it again. */
  leaseMs: number;
  preparers: Partial<Record<MailTemplate, MailPreparer>>;
};

const BATCH = 5;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60_000;
const KEEP_SENT_MS = 30 * 24 * 3_600_000;

/** 30 s after the first failure, doubling after each next one, at most an hour. */
export const retryDelayMs = (attempts: number) =>
  Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);

/**
 * A 5xx reply to the envelope or the message (mailbox unknown, relay refused) will not change
 * by itself: retrying it only delays telling the admin. Everything else is retried: timeouts,
 * refused connections, 4xx, and a refused login (the admin may be fixing SMTP_URL).
 */
const isPermanent = (error: unknown) => {
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
  return (
    (code === 'EENVELOPE' || code === 'EMESSAGE') &&
    typeof responseCode === 'number' &&
    responseCode >= 500 &&
    responseCode < 600
  );
};

/** What an admin sees of a failure: no stack, no credentials (nodemailer never prints them). */
const describe = (error: unknown) => {
  const e = error as { code?: unknown; responseCode?: unknown; message?: unknown };
  const parts = [
    typeof e.code === 'string' ? e.code : undefined,
    typeof e.responseCode === 'number' ? String(e.responseCode) : undefined,
    typeof e.message === 'string' ? e.message : String(error),
  ];
  return parts.filter(Boolean).join(' ');
};

/** The default: a row that already holds everything its template needs. */
const asStored = (row: OutboxRow): MailMessage => ({
  to: row.toAddress,
  template: row.template as MailTemplate,
  locale: row.locale,
  params: row.params,
});

export function createMailWorker(deps: MailWorkerDeps) {
  const { db, clock, mailer, log, maxAttempts, leaseMs, preparers } = deps;

  async function deliver(row: OutboxRow): Promise<void> {
    let message: MailMessage | null;
    try {
      const prepare = preparers[row.template as MailTemplate];
      message = prepare ? await prepare(row) : asStored(row);
    } catch (error) {
      // A bug or a database hiccup while preparing: same treatment as a send failure.
      await fail(row, error);
      return;
    }
    if (!message) {
      await discard(db, row.id);
      return;
    }
    try {
      await mailer.send(message);
      await settle(db, row.id, { state: 'sent', at: clock.now() });
    } catch (error) {
      await fail(row, error);
    }
  }

  async function fail(row: OutboxRow, error: unknown) {
    const now = clock.now();
    const text = describe(error);
    if (isPermanent(error) || row.attempts >= maxAttempts) {
      log.error({ mailId: row.id, template: row.template, err: text }, 'mail failed');
      await settle(db, row.id, { state: 'failed', at: now, error: text });
    } else {
      const nextAttemptAt = new Date(now.getTime() + retryDelayMs(row.attempts));
      log.warn({ mailId: row.id, template: row.template, err: text }, 'mail will be retried');
      await settle(db, row.id, { state: 'retrying', at: now, nextAttemptAt, error: text });
    }
  }

  return {
    /**
     * Sends every mail due now, a few at a time, until none is left; returns how many rows it
     * handled. Each attempt's outcome is recorded before the next batch is taken.
     */
    async deliverDue(): Promise<number> {
      let handled = 0;
      for (;;) {
        const now = clock.now();
        const rows = await claimDue(db, now, new Date(now.getTime() + leaseMs), BATCH);
        if (rows.length === 0) break;
        await Promise.all(rows.map(deliver));
        handled += rows.length;
      }
      await prune(db, new Date(clock.now().getTime() - KEEP_SENT_MS));
      return handled;
    },
  };
}

export type MailWorker = ReturnType<typeof createMailWorker>;
