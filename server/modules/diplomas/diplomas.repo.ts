import { and, desc, eq, inArray, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { DiplomaJobState, DiplomaKind } from '../../../shared/schemas/diplomas.js';
import type { Prize } from '../../../shared/schemas/rankings.js';
import { type Db, rowsOf } from '../../db/client.js';
import {
  diplomaJobs,
  diplomas,
  editionStudents,
  editions,
  exams,
  phasePrizes,
  phaseResults,
  phaseStudents,
  phases,
  users,
} from '../../db/schema.js';
import { jobStore } from '../../lib/jobs/jobs.repo.js';
import type { JobStore } from '../../lib/jobs/runner.js';
import { ANONYMISED_EMAIL_LIKE } from '../users/index.js';

/**
 * Live accounts that were not anonymised: an anonymised person gets no new diploma, and a
 * teacher's diploma does not list them (those issued before keep only what anonymising left).
 */
const named: SQL = sql`(${users.deletedAt} is null and ${users.email} not like ${ANONYMISED_EMAIL_LIKE})`;

/** A person a diploma may name. */
export type PersonRow = {
  id: string;
  type: 'student' | 'teacher' | 'admin';
  givenName: string | null;
  familyName: string | null;
  school: string | null;
  teacherRef: string | null;
};

export async function findPerson(db: Db, userId: string): Promise<PersonRow | undefined> {
  const [row] = await db
    .select({
      id: users.id,
      type: users.type,
      givenName: users.givenName,
      familyName: users.familyName,
      school: users.school,
      teacherRef: users.teacherRef,
    })
    .from(users)
    .where(and(eq(users.id, userId), named));
  return row;
}

/** A student with a result in the phase: what their diploma prints. */
export type EntryRow = {
  studentId: string;
  givenName: string | null;
  familyName: string | null;
  school: string | null;
  grade: number | null;
  teacherRef: string | null;
  prize: Prize | null;
};

/** Which of a phase's students: everyone, some by id, or one teacher's. */
export type EntryScope = { studentIds: readonly string[] } | { teacherId: string } | 'all';

/**
 * The phase's students who have a result in it (the results module's phase total) and an
 * account, with the grade they compete in and their prize, ordered by name.
 */
export async function findEntries(
  db: Db,
  phaseId: string,
  editionId: string,
  scope: EntryScope,
): Promise<EntryRow[]> {
  const conditions: SQL[] = [eq(phaseResults.phaseId, phaseId), named];
  if (scope !== 'all' && 'studentIds' in scope) {
    if (scope.studentIds.length === 0) return [];
    conditions.push(inArray(users.id, [...scope.studentIds]));
  } else if (scope !== 'all') {
    conditions.push(eq(users.teacherRef, scope.teacherId));
  }
  return db
    .select({
      studentId: users.id,
      givenName: users.givenName,
      familyName: users.familyName,
      school: users.school,
      grade: sql<number | null>`coalesce(${editionStudents.grade}, ${users.grade})`,
      teacherRef: users.teacherRef,
      prize: phasePrizes.prize,
    })
    .from(phaseResults)
    .innerJoin(
      phaseStudents,
      and(
        eq(phaseStudents.phaseId, phaseResults.phaseId),
        eq(phaseStudents.studentId, phaseResults.studentId),
      ),
    )
    .innerJoin(users, eq(users.id, phaseResults.studentId))
    .leftJoin(
      editionStudents,
      and(eq(editionStudents.editionId, editionId), eq(editionStudents.studentId, users.id)),
    )
    .leftJoin(
      phasePrizes,
      and(eq(phasePrizes.phaseId, phaseResults.phaseId), eq(phasePrizes.studentId, users.id)),
    )
    .where(and(...conditions))
    .orderBy(users.familyNameNormalized, users.givenNameNormalized, users.id);
}

/** The teachers (alive, of type teacher) among these ids. */
export async function findTeachers(db: Db, ids: readonly string[]): Promise<PersonRow[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      id: users.id,
      type: users.type,
      givenName: users.givenName,
      familyName: users.familyName,
      school: users.school,
      teacherRef: users.teacherRef,
    })
    .from(users)
    .where(and(inArray(users.id, [...ids]), eq(users.type, 'teacher'), named))
    .orderBy(users.familyNameNormalized, users.givenNameNormalized, users.id);
}

// ---------------------------------------------------------------------------------------
// Issued diplomas

export type DiplomaFacts = {
  phaseId: string;
  userId: string;
  kind: DiplomaKind;
  name: string;
  examName: string;
  editionName: string;
  phaseName: string;
  grade: number | null;
  school: string | null;
  prize: Prize | null;
  studentCount: number | null;
};

export type IssuedRow = typeof diplomas.$inferSelect;

/** Diplomas recorded per statement: a few milliseconds of the server's time each. */
const ISSUE_BATCH = 100;

/**
 * Records the diplomas about to be printed: a new one gets `newCode()`, today's date and the
 * facts given; one printed before is answered as it was first printed (code, date, name,
 * school, grade, prize, names of the competition), so a paper printed again reads like the
 * first and the public check confirms what both say. Answers every row, in the order given.
 *
 * The rows travel as one JSON parameter: a thousand diplomas built as a query of bound values
 * held the event loop for a quarter of a second, and exam day's answer writes with it
 * (bench/README.md).
 */
export async function issue(
  db: Db,
  facts: readonly DiplomaFacts[],
  newCode: () => string,
  now: Date,
): Promise<IssuedRow[]> {
  const issued = new Map<string, IssuedRow>();
  for (let i = 0; i < facts.length; i += ISSUE_BATCH) {
    const batch = facts.slice(i, i + ISSUE_BATCH).map((f) => ({ ...f, code: newCode() }));
    const result = await db.execute(sql`
      insert into diplomas (code, phase_id, user_id, kind, name, exam_name, edition_name,
        phase_name, grade, school, prize, student_count, issued_at, updated_at)
      select code, "phaseId", "userId", kind, name, "examName", "editionName", "phaseName",
        grade, school, prize, "studentCount", ${now}::timestamptz, ${now}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) as f(code text, "phaseId" uuid,
        "userId" uuid, kind text, name text, "examName" text, "editionName" text,
        "phaseName" text, grade int, school text, prize text, "studentCount" int)
      on conflict (phase_id, user_id) where replaced_at is null
        do update set updated_at = diplomas.updated_at
      returning code, phase_id as "phaseId", user_id as "userId", kind, name,
        exam_name as "examName", edition_name as "editionName", phase_name as "phaseName",
        grade, school, prize, student_count as "studentCount", issued_at as "issuedAt",
        updated_at as "updatedAt", anonymised_at as "anonymisedAt", stale_at as "staleAt",
        replaced_at as "replacedAt", replaced_by as "replacedBy"`);
    const dateOf = (d: Date | string | null) => (d ? new Date(d) : null);
    for (const row of rowsOf<IssuedRow>(result)) {
      issued.set(`${row.phaseId}/${row.userId}`, {
        ...row,
        issuedAt: new Date(row.issuedAt),
        updatedAt: new Date(row.updatedAt),
        anonymisedAt: dateOf(row.anonymisedAt),
        staleAt: dateOf(row.staleAt),
        replacedAt: dateOf(row.replacedAt),
      });
    }
  }
  return facts.map((f) => {
    const row = issued.get(`${f.phaseId}/${f.userId}`);
    if (!row) throw new Error('diploma not recorded');
    return row;
  });
}

export async function findIssued(db: Db, code: string): Promise<IssuedRow | undefined> {
  const [row] = await db.select().from(diplomas).where(eq(diplomas.code, code));
  return row;
}

/** The diplomas issued to a person, oldest first (their part of a data export). */
export async function findIssuedTo(db: Db, userId: string): Promise<IssuedRow[]> {
  return db
    .select()
    .from(diplomas)
    .where(eq(diplomas.userId, userId))
    .orderBy(diplomas.issuedAt, diplomas.code);
}

/** The diplomas in force of a phase already issued to these people (any kind), by code. */
export async function findIssuedIn(
  db: Db,
  phaseId: string,
  userIds: readonly string[],
): Promise<{ code: string; userId: string; prize: IssuedRow['prize'] }[]> {
  if (userIds.length === 0) return [];
  return db
    .select({ code: diplomas.code, userId: diplomas.userId, prize: diplomas.prize })
    .from(diplomas)
    .where(
      and(
        eq(diplomas.phaseId, phaseId),
        inArray(diplomas.userId, [...userIds]),
        isNull(diplomas.replacedAt),
      ),
    )
    .orderBy(diplomas.code);
}

/**
 * Flags the diplomas in force of a phase that these students' changed results make out of date:
 * their own, and their teachers' (which list them with their prizes). Answers how many.
 */
export async function markStale(
  db: Db,
  phaseId: string,
  studentIds: readonly string[],
  now: Date,
): Promise<number> {
  if (studentIds.length === 0) return 0;
  const teachers = db
    .select({ id: users.teacherRef })
    .from(users)
    .where(and(inArray(users.id, [...studentIds]), isNotNull(users.teacherRef)));
  const rows = await db
    .update(diplomas)
    .set({ staleAt: now, updatedAt: now })
    .where(
      and(
        eq(diplomas.phaseId, phaseId),
        isNull(diplomas.replacedAt),
        or(
          and(eq(diplomas.kind, 'student'), inArray(diplomas.userId, [...studentIds])),
          and(eq(diplomas.kind, 'teacher'), inArray(diplomas.userId, teachers)),
        ),
      ),
    )
    .returning({ code: diplomas.code });
  return rows.length;
}

/** The phase's diplomas in force flagged out of date, by holder's name as printed. */
export async function findStale(db: Db, phaseId: string): Promise<IssuedRow[]> {
  return db
    .select()
    .from(diplomas)
    .where(
      and(eq(diplomas.phaseId, phaseId), isNull(diplomas.replacedAt), isNotNull(diplomas.staleAt)),
    )
    .orderBy(diplomas.name, diplomas.code);
}

/** A person's diploma in force of a phase, locked for its replacement. */
export async function lockInForce(
  db: Db,
  phaseId: string,
  userId: string,
): Promise<IssuedRow | undefined> {
  const [row] = await db
    .select()
    .from(diplomas)
    .where(
      and(eq(diplomas.phaseId, phaseId), eq(diplomas.userId, userId), isNull(diplomas.replacedAt)),
    )
    .for('update');
  return row;
}

/** Stamps `old` replaced by a new diploma of `facts` (code `code`), recorded now. */
export async function replace(
  db: Db,
  old: IssuedRow,
  facts: DiplomaFacts,
  code: string,
  now: Date,
): Promise<IssuedRow> {
  await db
    .update(diplomas)
    .set({ replacedAt: now, replacedBy: code, updatedAt: now })
    .where(eq(diplomas.code, old.code));
  const [row] = await db
    .insert(diplomas)
    .values({ ...facts, code, issuedAt: now, updatedAt: now })
    .returning();
  if (!row) throw new Error('diploma not recorded');
  return row;
}

/**
 * Erases the holder from their diplomas: no name, no school, no grade; the code, the
 * competition, the prize and the date stay, so the paper can still be confirmed.
 */
export async function anonymiseIssuedTo(db: Db, userId: string): Promise<void> {
  await db
    .update(diplomas)
    .set({ name: '', school: null, grade: null, anonymisedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(diplomas.userId, userId), isNull(diplomas.anonymisedAt)));
}

// ---------------------------------------------------------------------------------------
// A person's diplomas

export type MyDiplomaRow = {
  examId: string;
  examName: string;
  editionId: string;
  editionName: string;
  phaseId: string;
  phaseName: string;
  phaseState: 'open' | 'closed';
  startDate: Date;
  userId: string;
  givenName: string | null;
  familyName: string | null;
  grade: number | null;
  prize: Prize | null;
};

const MY_DIPLOMAS_LIMIT = 500;

/**
 * Phases in which these students have a result (students of `teacherId`, or `studentId`
 * alone), newest phase first.
 */
export async function findResultsOf(
  db: Db,
  who: { studentId: string } | { teacherId: string },
): Promise<MyDiplomaRow[]> {
  const person =
    'studentId' in who ? eq(users.id, who.studentId) : eq(users.teacherRef, who.teacherId);
  return db
    .select({
      examId: exams.id,
      examName: exams.name,
      editionId: editions.id,
      editionName: editions.name,
      phaseId: phases.id,
      phaseName: phases.name,
      phaseState: phases.state,
      startDate: phases.startDate,
      userId: users.id,
      givenName: users.givenName,
      familyName: users.familyName,
      grade: sql<number | null>`coalesce(${editionStudents.grade}, ${users.grade})`,
      prize: phasePrizes.prize,
    })
    .from(phaseResults)
    .innerJoin(users, eq(users.id, phaseResults.studentId))
    .innerJoin(
      phaseStudents,
      and(
        eq(phaseStudents.phaseId, phaseResults.phaseId),
        eq(phaseStudents.studentId, phaseResults.studentId),
      ),
    )
    .innerJoin(phases, eq(phases.id, phaseResults.phaseId))
    .innerJoin(editions, eq(editions.id, phases.editionId))
    .innerJoin(exams, eq(exams.id, editions.examId))
    .leftJoin(
      editionStudents,
      and(eq(editionStudents.editionId, editions.id), eq(editionStudents.studentId, users.id)),
    )
    .leftJoin(
      phasePrizes,
      and(eq(phasePrizes.phaseId, phases.id), eq(phasePrizes.studentId, users.id)),
    )
    .where(
      and(
        person,
        named,
        isNull(phases.deletedAt),
        isNull(editions.deletedAt),
        isNull(exams.deletedAt),
      ),
    )
    .orderBy(desc(phases.startDate), users.familyNameNormalized, users.givenNameNormalized)
    .limit(MY_DIPLOMAS_LIMIT);
}

// ---------------------------------------------------------------------------------------
// Background jobs

export type JobRow = typeof diplomaJobs.$inferSelect;

/**
 * Adds a job, unless the person already has one waiting or running in the phase (the partial
 * unique index decides, also between requests at the same moment): undefined then.
 */
export async function insertJob(
  db: Db,
  job: typeof diplomaJobs.$inferInsert,
): Promise<JobRow | undefined> {
  const [row] = await db
    .insert(diplomaJobs)
    .values(job)
    .onConflictDoNothing({
      target: [diplomaJobs.requestedBy, diplomaJobs.phaseId],
      where: sql`${diplomaJobs.state} in ('queued', 'running')`,
    })
    .returning();
  return row;
}

/** The person's job of the phase that still waits or runs, if any. */
export async function findRunningJob(
  db: Db,
  userId: string,
  phaseId: string,
): Promise<JobRow | undefined> {
  const [row] = await db
    .select()
    .from(diplomaJobs)
    .where(
      and(
        eq(diplomaJobs.requestedBy, userId),
        eq(diplomaJobs.phaseId, phaseId),
        inArray(diplomaJobs.state, ['queued', 'running']),
      ),
    );
  return row;
}

/** The kept archives: their bytes together, and when the oldest of them was finished. */
export async function keptArchives(db: Db): Promise<{ bytes: number; oldest: Date | null }> {
  const [row] = await db
    .select({
      bytes: sql<number>`coalesce(sum(${diplomaJobs.fileBytes}), 0)::float8`,
      oldest: sql<Date | null>`min(${diplomaJobs.finishedAt})`.mapWith(diplomaJobs.finishedAt),
    })
    .from(diplomaJobs)
    .where(and(eq(diplomaJobs.state, 'done'), isNotNull(diplomaJobs.fileKey)));
  return { bytes: Number(row?.bytes ?? 0), oldest: row?.oldest ?? null };
}

export async function findJobsOf(db: Db, userId: string, limit: number): Promise<JobRow[]> {
  return db
    .select()
    .from(diplomaJobs)
    .where(eq(diplomaJobs.requestedBy, userId))
    .orderBy(desc(diplomaJobs.createdAt), desc(diplomaJobs.id))
    .limit(limit);
}

export async function findJob(db: Db, jobId: string): Promise<JobRow | undefined> {
  const [row] = await db.select().from(diplomaJobs).where(eq(diplomaJobs.id, jobId));
  return row;
}

/** What a diploma job's maker and the archive sweep write of it. */
export type JobChange = Partial<{
  state: DiplomaJobState;
  total: number;
  done: number;
  fileName: string | null;
  fileKey: string | null;
  fileBytes: number | null;
  errorCode: string | null;
  heartbeatAt: Date;
  finishedAt: Date;
}>;

/** The diploma jobs as the job runner reads and writes them (server/lib/jobs/jobs.repo.ts). */
export const jobs = (db: Db): JobStore<JobRow, JobChange> => jobStore(db, diplomaJobs);

/** Changes a job; with `take`, only while that take still holds it (see jobs.repo.ts). */
export const updateJob = (
  db: Db,
  jobId: string,
  change: JobChange,
  take?: number,
): Promise<boolean> => jobs(db).update(jobId, change, take);

/** Finished jobs whose ZIP outlived its keeping time. */
export async function findExpiredFiles(db: Db, before: Date): Promise<JobRow[]> {
  return db
    .select()
    .from(diplomaJobs)
    .where(
      and(
        eq(diplomaJobs.state, 'done'),
        isNotNull(diplomaJobs.fileKey),
        lt(diplomaJobs.finishedAt, before),
      ),
    )
    .limit(100);
}
