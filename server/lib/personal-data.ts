import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { auditEvents } from './audit.schema.js';

// A person's data, gathered for a data-subject request (GDPR articles 15 and 20) and removed
// by anonymising (article 17), module by module: each module that keeps something about a
// person says what through one part, exported from its index.ts and listed once in the
// composition root (server/app.ts). A module added later joins with one part and one line.

/** A file a module keeps of a person: its bytes go in the ZIP export. */
export type PersonalFile = { id: string; name: string; storageKey: string };

export type PersonalDataPart = {
  /** Its key in the export (`answers`, `enrolments`…), unique among the parts. */
  name: string;
  /** What the module keeps about the person, as plain JSON; [] or null when nothing. */
  collect(db: Db, userId: string): Promise<unknown>;
  /** The person's files the module keeps (uploaded pages), for the ZIP export. */
  files?(db: Db, userId: string): Promise<PersonalFile[]>;
  /**
   * Removes, in the anonymising transaction, what of the module's data still names the person
   * or is in their own words (texts, pages, addresses, identities), keeping what statistics
   * need (scores, totals, ranks). Returns the storage keys whose bytes go after the commit.
   */
  anonymise?(tx: Db, userId: string): Promise<string[] | undefined>;
};

/** Audit events about a person: on their account, done by them, or naming their id. */
const aboutPerson = (userId: string): SQL =>
  sql`(${auditEvents.entityType} = 'user' and ${auditEvents.entityId} = ${userId})
    or ${auditEvents.actorId} = ${userId}
    or strpos(coalesce(${auditEvents.before}::text, ''), ${userId}) > 0
    or strpos(coalesce(${auditEvents.after}::text, ''), ${userId}) > 0`;

/**
 * The audit trail's part. Export: every event about the person (on their account, done by
 * them, or naming them), with its values where it is on their account. Anonymising: the values of
 * the events on their account (names, address, birth date as they were changed) are replaced
 * by the names of the fields that changed, and the reasons the person wrote into events they
 * did (an appeal's) by "anonim"; who did what when stays, and no event goes — migrations 0015
 * and 0017 let exactly this through the append-only trigger, in this transaction only.
 */
export const auditPersonalData: PersonalDataPart = {
  name: 'auditEvents',
  async collect(db, userId) {
    const rows = await db
      .select()
      .from(auditEvents)
      .where(aboutPerson(userId))
      .orderBy(auditEvents.at, auditEvents.id);
    // Values only of the events on the person's own account: those of events they did or
    // that name them among others may be other people's data (GDPR art. 15(4)).
    return rows.map((r) => {
      const own = r.entityType === 'user' && r.entityId === userId;
      return {
        at: r.at.toISOString(),
        action: r.action,
        entityType: r.entityType,
        entityId: r.entityId,
        byThePerson: r.actorId === userId,
        ...(own ? { before: r.before, after: r.after, reason: r.reason } : {}),
      };
    });
  },
  async anonymise(tx, userId) {
    await tx.execute(sql`select set_config('podium.anonymising', ${userId}, true)`);
    await tx
      .update(auditEvents)
      .set({ before: redacted(auditEvents.before), after: redacted(auditEvents.after) })
      .where(sql`${auditEvents.entityType} = 'user' and ${auditEvents.entityId} = ${userId}
        and (${auditEvents.before} is not null or ${auditEvents.after} is not null)`);
    // What the person wrote into events they did (an appeal's reason): theirs (migration 0017).
    await tx
      .update(auditEvents)
      .set({ reason: 'anonim' })
      .where(sql`${auditEvents.actorId} = ${userId} and ${auditEvents.reason} is not null`);
    await tx.execute(sql`select set_config('podium.anonymising', '', true)`);
    return undefined;
  },
};

/** A jsonb object with each value replaced by "anonim" (the keys say what changed). */
const redacted = (column: typeof auditEvents.before | typeof auditEvents.after): SQL =>
  sql`case when jsonb_typeof(${column}) = 'object'
    then (select coalesce(jsonb_object_agg(k, 'anonim'), '{}'::jsonb) from jsonb_object_keys(${column}) k)
    when ${column} is null then null else '"anonim"'::jsonb end`;
