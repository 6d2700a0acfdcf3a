import type { Db } from '../db/client.js';
import { auditEvents } from '../db/schema.js';
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

/** Appends an audit event in the caller's transaction; events are never changed afterwards. */
export async function appendAudit(db: Db, event: AuditEvent): Promise<void> {
  await db.insert(auditEvents).values({
    id: uuidv7(),
    actorId: event.actorId,
    action: event.action,
    entityType: event.entityType,
    entityId: event.entityId,
    before: event.before ?? null,
    after: event.after ?? null,
    reason: event.reason ?? null,
  });
}
