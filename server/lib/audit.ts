import type { Db } from '../db/client.js';
import { auditEvents } from './audit.schema.js';
import { uuidv7 } from './ids.js';

export type AuditEvent = {
  actorId: string | null;
  action: string;
  entityType: string;
  entityId: string;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
};

const toRow = (event: AuditEvent) => ({
  id: uuidv7(),
  actorId: event.actorId,
  action: event.action,
  entityType: event.entityType,
  entityId: event.entityId,
  before: event.before ?? null,
  after: event.after ?? null,
  reason: event.reason ?? null,
});

/** Appends an audit event in the caller's transaction; events are never changed afterwards. */
export async function appendAudit(db: Db, event: AuditEvent): Promise<void> {
  await db.insert(auditEvents).values(toRow(event));
}

/** Appends many audit events in one statement (a group of finishes, a rescoring). */
export async function appendAudits(db: Db, events: readonly AuditEvent[]): Promise<void> {
  if (events.length > 0) await db.insert(auditEvents).values(events.map(toRow));
}
