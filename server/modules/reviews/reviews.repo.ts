import { and, asc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.js';
import {
  answers,
  attempts,
  auditEvents,
  editions,
  exams,
  examTeachers,
  files,
  phases,
  questionReviewers,
  questionRubrics,
  questions,
  reviewAppeals,
  reviewEntries,
  reviewMarks,
  testItems,
  testResults,
  tests,
  users,
} from '../../db/schema.js';

export type EntryRow = typeof reviewEntries.$inferSelect;
export type AppealRow = typeof reviewAppeals.$inferSelect;
export type MarkRow = typeof reviewMarks.$inferSelect;
export type Round = MarkRow['round'];

// ---------------------------------------------------------------------------------------
// Who marks in a phase

/** Whether the teacher marks or mediates any question drawn into a test of the phase. */
export async function isPhaseMarker(db: Db, phaseId: string, teacherId: string) {
  const result = await db.execute(sql`
    select 1 from ${testItems} ti
    join ${tests} t on t.id = ti.test_id
    join ${questions} q on q.id = ti.question_id
    where t.phase_id = ${phaseId} and (q.mediator_teacher_id = ${teacherId}
      or exists (select 1 from ${questionReviewers} qr
        where qr.question_id = q.id and qr.teacher_id = ${teacherId})
      or exists (select 1 from ${reviewMarks} m join ${reviewEntries} e on e.id = m.parent_id
        where e.item_id = q.id and m.reviewer_id = ${teacherId}))
    limit 1`);
  return rowsOf(result).length > 0;
}

/** A phase where a teacher marks or mediates, with their open work there. */
export type MarkerPhaseRow = {
  exam_id: string;
  exam_name: string;
  edition_id: string;
  edition_name: string;
  phase_id: string;
  phase_name: string;
  phase_type: 'online' | 'hybrid';
  review_started: boolean;
  is_reviewer: boolean;
  is_mediator: boolean;
};

/**
 * The phases (not deleted, nor their edition or exam) where the teacher grades or mediates a
 * question drawn into one of its tests, or holds marks of either round; with the marks they
 * still owe (entries still in marking and not appealed; remark appeals pending). The
 * mediations are counted apart (`findMediationsAskedOf`), by the rule of deciders.ts.
 * Newest phase first.
 */
export async function findMarkerPhases(db: Db, teacherId: string): Promise<MarkerPhaseRow[]> {
  const result = await db.execute(sql`
    with drawn as (
      select t.phase_id,
        bool_or(exists (select 1 from ${questionReviewers} qr
          where qr.question_id = q.id and qr.teacher_id = ${teacherId})) as grades,
        bool_or(q.mediator_teacher_id is not distinct from ${teacherId}::uuid) as mediates
      from ${testItems} ti
      join ${tests} t on t.id = ti.test_id
      join ${questions} q on q.id = ti.question_id
      where q.mediator_teacher_id = ${teacherId}
        or exists (select 1 from ${questionReviewers} qr
          where qr.question_id = q.id and qr.teacher_id = ${teacherId})
      group by t.phase_id
    ),
    marked as (
      select e.phase_id from ${reviewMarks} m join ${reviewEntries} e on e.id = m.parent_id
      where m.round = 'review' and m.reviewer_id = ${teacherId}
      union
      select a.phase_id from ${reviewMarks} m join ${reviewAppeals} a on a.id = m.parent_id
      where m.round = 'appeal' and m.reviewer_id = ${teacherId}
    ),
    mine as (
      select phase_id, grades, mediates from drawn
      union all
      select phase_id, true, false from marked
    ),
    per_phase as (
      select phase_id, bool_or(grades) as grades, bool_or(mediates) as mediates
      from mine group by phase_id
    )
    select ex.id as exam_id, ex.name as exam_name, ed.id as edition_id, ed.name as edition_name,
      p.id as phase_id, p.name as phase_name, p.type as phase_type,
      p.review_started, pp.grades as is_reviewer, pp.mediates as is_mediator
    from per_phase pp
    join ${phases} p on p.id = pp.phase_id
    join ${editions} ed on ed.id = p.edition_id
    join ${exams} ex on ex.id = ed.exam_id
    where p.deleted_at is null and ed.deleted_at is null and ex.deleted_at is null
    order by p.start_date desc, p.id`);
  return rowsOf<MarkerPhaseRow>(result);
}

/**
 * The teacher's marks still to give, by phase and student: first-round marks of entries being
 * marked (not appealed) and re-marks of pending remark appeals. Whether each still counts (the
 * conflict rule, for a marker the student named coordinator after assignment) is the caller's.
 */
export async function findOpenMarksOf(
  db: Db,
  teacherId: string,
): Promise<{ phase_id: string; student_id: string; round: 'review' | 'appeal' }[]> {
  const result = await db.execute(sql`
    select e.phase_id, e.student_id, 'review' as round
    from ${reviewMarks} m join ${reviewEntries} e on e.id = m.parent_id
    where m.round = 'review' and m.reviewer_id = ${teacherId} and m.score is null
      and e.status = 'marking'
      and not exists (select 1 from ${reviewAppeals} a where a.entry_id = e.id)
    union all
    select a.phase_id, a.student_id, 'appeal' as round
    from ${reviewMarks} m join ${reviewAppeals} a on a.id = m.parent_id
    where m.round = 'appeal' and m.reviewer_id = ${teacherId} and m.score is null
      and a.kind = 'remark' and a.status = 'pending'`);
  return rowsOf(result);
}

/**
 * Remark appeals waiting for a decision (marks too far apart, or short of re-markers) in the
 * live phases of the competitions `adminId` administers (every competition when `allExams`),
 * with their phase's names: those the exam's admins may be asked to decide, before deciders.ts
 * says whether this one may.
 */
export async function findAppealsAskedOfAdmin(db: Db, adminId: string, allExams: boolean) {
  const result = await db.execute(sql`
    select a.id, a.item_id as "itemId", a.student_id as "studentId", a.entry_id as "entryId",
      p.id as "phaseId", p.name as "phaseName", ed.id as "editionId", ex.id as "examId",
      ex.name as "examName"
    from ${reviewAppeals} a
    join ${phases} p on p.id = a.phase_id
    join ${editions} ed on ed.id = p.edition_id
    join ${exams} ex on ex.id = ed.exam_id
    where a.kind = 'remark'
      and (a.status = 'needs_mediation' or (a.status = 'pending'
        and (select count(*) from ${reviewMarks} m where m.parent_id = a.id
          and m.round = 'appeal') < 2))
      and p.deleted_at is null and ed.deleted_at is null and ex.deleted_at is null
      and (${allExams} or exists (select 1 from ${examTeachers} et
        where et.exam_id = ex.id and et.teacher_id = ${adminId} and et.role = 'admin'))
    order by p.start_date desc, p.id`);
  return rowsOf<{
    id: string;
    itemId: string;
    studentId: string;
    entryId: string;
    phaseId: string;
    phaseName: string;
    editionId: string;
    examId: string;
    examName: string;
  }>(result);
}

/**
 * The entries (not appealed) and remark appeals waiting for mediation on questions the teacher
 * mediates, in phases not deleted: those they may be asked to decide, before deciders.ts says
 * whether they may.
 */
export async function findMediationsAskedOf(db: Db, teacherId: string) {
  const live = (phaseId: typeof reviewEntries.phaseId | typeof reviewAppeals.phaseId) =>
    sql`exists (select 1 from ${phases} p join ${editions} ed on ed.id = p.edition_id
      join ${exams} ex on ex.id = ed.exam_id where p.id = ${phaseId} and p.deleted_at is null
      and ed.deleted_at is null and ex.deleted_at is null)`;
  const mediates = (itemId: typeof reviewEntries.itemId | typeof reviewAppeals.itemId) =>
    sql`exists (select 1 from ${questions} q where q.id = ${itemId}
      and q.mediator_teacher_id = ${teacherId})`;
  const entries = await db
    .select()
    .from(reviewEntries)
    .where(
      and(
        eq(reviewEntries.status, 'needs_mediation'),
        mediates(reviewEntries.itemId),
        sql`not exists (select 1 from ${reviewAppeals} a where a.entry_id = ${reviewEntries.id})`,
        live(reviewEntries.phaseId),
      ),
    );
  const appeals = await db
    .select()
    .from(reviewAppeals)
    .where(
      and(
        eq(reviewAppeals.status, 'needs_mediation'),
        eq(reviewAppeals.kind, 'remark'),
        mediates(reviewAppeals.itemId),
        live(reviewAppeals.phaseId),
      ),
    );
  return { entries, appeals };
}

/** The question's current mediator (null: none, or not a question). */
export async function findMediator(db: Db, itemId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: questions.mediatorTeacherId })
    .from(questions)
    .where(eq(questions.id, itemId));
  return row?.id ?? null;
}

/** The conflict data of teachers: their own team code. */
export async function findTeacherCodes(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, string | null>();
  const rows = await db
    .select({ id: users.id, code: users.teacherCode })
    .from(users)
    .where(inArray(users.id, [...ids]));
  return new Map(rows.map((r) => [r.id, r.code]));
}

/** Students' coordinating teacher and that teacher's team code. */
export async function findStudentTeams(db: Db, studentIds: readonly string[]) {
  const teams = new Map<string, { teacherRef: string | null; teamCode: string | null }>();
  if (studentIds.length === 0) return teams;
  const result = await db.execute(sql`
    select s.id, s.teacher_ref, c.teacher_code
    from ${users} s left join ${users} c on c.id = s.teacher_ref
    where s.id in (select jsonb_array_elements_text(${JSON.stringify([...studentIds])}::jsonb)::uuid)`);
  for (const r of rowsOf<{ id: string; teacher_ref: string | null; teacher_code: string | null }>(
    result,
  )) {
    teams.set(r.id, { teacherRef: r.teacher_ref, teamCode: r.teacher_code });
  }
  return teams;
}

// ---------------------------------------------------------------------------------------
// Starting the review

/** Whether one of the phase's tests is still open at `now`, or an attempt of it runs. */
export async function hasRunningTests(db: Db, phaseId: string, now: Date): Promise<boolean> {
  const result = await db.execute(sql`
    select 1 from ${tests} t where t.phase_id = ${phaseId} and (
      (t.published and t.end_date > ${now.toISOString()}::timestamptz)
      or exists (select 1 from ${attempts} a where a.test_id = t.id and a.state = 'in_progress'))
    limit 1`);
  return rowsOf(result).length > 0;
}

/** Questions drawn into the phase's tests that people mark (all, or only open ones). */
export async function countQuestionsToMark(
  db: Db,
  phaseId: string,
  openOnly: boolean,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(distinct ${testItems.questionId})::int` })
    .from(testItems)
    .innerJoin(tests, eq(tests.id, testItems.testId))
    .innerJoin(questions, eq(questions.id, testItems.questionId))
    .where(and(eq(tests.phaseId, phaseId), openOnly ? eq(questions.itemType, 'open') : undefined));
  return Number(row?.n ?? 0);
}

export async function findPhaseTestIds(db: Db, phaseId: string): Promise<string[]> {
  const rows = await db.select({ id: tests.id }).from(tests).where(eq(tests.phaseId, phaseId));
  return rows.map((r) => r.id);
}

/** How many scanned pages of the phase's tests wait for a person to match them. */
export async function countWaitingScanPages(db: Db, phaseId: string): Promise<number> {
  const rows = rowsOf<{ n: number }>(
    await db.execute(sql`
      select count(*)::int as n from scan_pages sp join tests t on t.id = sp.test_id
      where t.phase_id = ${phaseId} and sp.state = 'waiting'`),
  );
  return rows[0]?.n ?? 0;
}

/** An answer waiting for people to mark it, with what an entry needs. */
export type AnswerToMark = {
  answerId: string;
  testId: string;
  studentId: string;
  itemId: string;
  position: number;
  points: number;
};

/**
 * Answers of the phase's tests that wait for marking and have no entry yet: hybrid answers with
 * pages, online open answers with text (the results module marks them awaiting_marking).
 */
export async function findAnswersToMark(db: Db, phaseId: string): Promise<AnswerToMark[]> {
  const result = await db.execute(sql`
    select a.id as answer_id, a.test_id, a.student_id, a.question_id as item_id,
      ti.position, ti.score as points
    from ${answers} a
    join ${tests} t on t.id = a.test_id
    join ${testItems} ti on ti.test_id = a.test_id and ti.question_id = a.question_id
    where t.phase_id = ${phaseId} and a.score_state = 'awaiting_marking'
      and not exists (select 1 from ${reviewEntries} e where e.answer_id = a.id)
    order by a.test_id, ti.position, a.id`);
  return rowsOf<{
    answer_id: string;
    test_id: string;
    student_id: string;
    item_id: string;
    position: number;
    points: string | number;
  }>(result).map((r) => ({
    answerId: r.answer_id,
    testId: r.test_id,
    studentId: r.student_id,
    itemId: r.item_id,
    position: Number(r.position),
    points: Number(r.points),
  }));
}

export async function insertEntries(db: Db, rows: (typeof reviewEntries.$inferInsert)[]) {
  if (rows.length > 0) await db.insert(reviewEntries).values(rows);
}

export async function insertMarks(db: Db, rows: (typeof reviewMarks.$inferInsert)[]) {
  if (rows.length > 0) await db.insert(reviewMarks).values(rows);
}

/** Open (unmarked) and given marks per reviewer of a phase's entries of one question. */
export async function loadOfQuestion(db: Db, itemId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ id: reviewMarks.reviewerId, n: sql<number>`count(*)::int` })
    .from(reviewMarks)
    .innerJoin(reviewEntries, eq(reviewEntries.id, reviewMarks.parentId))
    .where(eq(reviewEntries.itemId, itemId))
    .groupBy(reviewMarks.reviewerId);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

// ---------------------------------------------------------------------------------------
// Entries

export async function lockEntry(db: Db, phaseId: string, id: string) {
  const [row] = await db
    .select()
    .from(reviewEntries)
    .where(and(eq(reviewEntries.id, id), eq(reviewEntries.phaseId, phaseId)))
    .for('update');
  return row;
}

export async function findEntry(db: Db, phaseId: string, id: string) {
  const [row] = await db
    .select()
    .from(reviewEntries)
    .where(and(eq(reviewEntries.id, id), eq(reviewEntries.phaseId, phaseId)));
  return row;
}

export async function findEntryOfAnswer(db: Db, answerId: string) {
  const [row] = await db.select().from(reviewEntries).where(eq(reviewEntries.answerId, answerId));
  return row;
}

export async function updateEntry(db: Db, id: string, patch: Partial<EntryRow>) {
  const [row] = await db
    .update(reviewEntries)
    .set({ ...patch, version: sql`${reviewEntries.version} + 1`, updatedAt: sql`now()` })
    .where(eq(reviewEntries.id, id))
    .returning();
  if (!row) throw new Error('entry not updated');
  return row;
}

/** The marks of these entries or appeals, by parent, in slot order. */
export async function findMarks(db: Db, parentIds: readonly string[]) {
  const byParent = new Map<string, MarkRow[]>();
  if (parentIds.length === 0) return byParent;
  const rows = await db
    .select()
    .from(reviewMarks)
    .where(inArray(reviewMarks.parentId, [...parentIds]))
    .orderBy(asc(reviewMarks.parentId), asc(reviewMarks.slot));
  for (const r of rows) byParent.set(r.parentId, [...(byParent.get(r.parentId) ?? []), r]);
  return byParent;
}

/** Who mediated these entries in the first round (those never mediated are left out). */
export async function findEntryMediators(db: Db, entryIds: readonly string[]) {
  const byEntry = new Map<string, string>();
  if (entryIds.length === 0) return byEntry;
  const rows = await db
    .select({ id: reviewEntries.id, mediatorId: reviewEntries.mediatorId })
    .from(reviewEntries)
    .where(inArray(reviewEntries.id, [...new Set(entryIds)]));
  for (const r of rows) if (r.mediatorId) byEntry.set(r.id, r.mediatorId);
  return byEntry;
}

/**
 * When each teacher was last reminded of the phase's marking (the time the reminder recorded in
 * its audit event, on the service's clock).
 */
export async function findLastReminders(db: Db, phaseId: string) {
  const rows = await db
    .select({ after: auditEvents.after, at: auditEvents.at })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.entityType, 'phase'),
        eq(auditEvents.entityId, phaseId),
        eq(auditEvents.action, 'review.reminded'),
      ),
    );
  const last = new Map<string, Date>();
  for (const r of rows) {
    const after = r.after as { teacherIds?: unknown; sentAt?: unknown } | null;
    const at = typeof after?.sentAt === 'string' ? new Date(after.sentAt) : r.at;
    const ids = Array.isArray(after?.teacherIds) ? after.teacherIds : [];
    for (const id of ids) {
      if (typeof id !== 'string') continue;
      const known = last.get(id);
      if (!known || known < at) last.set(id, at);
    }
  }
  return last;
}

/** Holds the phase's row until the transaction ends: one reminder round at a time. */
export async function lockPhase(db: Db, phaseId: string) {
  await db.select({ id: phases.id }).from(phases).where(eq(phases.id, phaseId)).for('update');
}

export async function updateMark(
  db: Db,
  id: string,
  patch: { score: number; criteria: string[]; note: string | null; markedAt: Date },
) {
  await db.update(reviewMarks).set(patch).where(eq(reviewMarks.id, id));
}

export async function moveMark(db: Db, id: string, reviewerId: string) {
  await db.update(reviewMarks).set({ reviewerId }).where(eq(reviewMarks.id, id));
}

/** Which of these entries have an appeal filed. */
export async function entriesWithAppeal(db: Db, entryIds: readonly string[]) {
  if (entryIds.length === 0) return new Set<string>();
  const rows = await db
    .select({ id: reviewAppeals.entryId })
    .from(reviewAppeals)
    .where(inArray(reviewAppeals.entryId, [...entryIds]));
  return new Set(rows.flatMap((r) => (r.id ? [r.id] : [])));
}

/** The current mediators of these questions. */
export async function findMediators(db: Db, itemIds: readonly string[]) {
  if (itemIds.length === 0) return new Map<string, string | null>();
  const rows = await db
    .select({ id: questions.id, mediator: questions.mediatorTeacherId })
    .from(questions)
    .where(inArray(questions.id, [...new Set(itemIds)]));
  return new Map(rows.map((r) => [r.id, r.mediator]));
}

/** Narrowing of a list, as the contract's `where`. */
export type ListWhere = {
  testId?: string;
  itemId?: string;
  status?: string;
  marked?: boolean;
};

type ListTable = typeof reviewEntries | typeof reviewAppeals;

function listConditions(
  table: ListTable,
  round: Round,
  phaseId: string,
  type: string,
  viewer: { id: string; whole: boolean },
  where: ListWhere,
): SQL[] {
  const mine = (given?: boolean) => sql`exists (select 1 from ${reviewMarks} m
    where m.parent_id = ${table.id} and m.round = ${round} and m.reviewer_id = ${viewer.id}
    ${given === undefined ? sql`` : given ? sql`and m.score is not null` : sql`and m.score is null`})`;
  const mediates = sql`exists (select 1 from ${questions} q
    where q.id = ${table.itemId} and q.mediator_teacher_id = ${viewer.id})`;
  const mediated =
    table === reviewEntries
      ? sql`${reviewEntries.finalBy} = 'mediator'`
      : sql`${reviewAppeals.mediatorScore} is not null`;
  // An appeal short of re-markers waits for a decision as one whose marks differ (deciders.ts
  // `lacksMarkers`, here in SQL for the list's paging).
  const waitsForDecision =
    table === reviewAppeals
      ? sql`(${reviewAppeals.status} = 'needs_mediation' or (${reviewAppeals.status} = 'pending'
          and (select count(*) from ${reviewMarks} m where m.parent_id = ${reviewAppeals.id}
            and m.round = 'appeal') < 2))`
      : sql`${reviewEntries.status} = 'needs_mediation'`;
  const conditions: SQL[] = [eq(table.phaseId, phaseId)];
  if (round === 'appeal') {
    conditions.push(
      type === 'COMMITTEE_ITEMS'
        ? sql`${reviewAppeals.kind} = 'committee'`
        : sql`${reviewAppeals.kind} = 'remark'`,
    );
  }
  switch (type) {
    case 'MEDIATION_ITEMS':
      conditions.push(sql`(${waitsForDecision} or ${mediated})`);
      if (!viewer.whole) conditions.push(mediates);
      break;
    case 'NEEDS_MEDIATION_ITEMS':
      conditions.push(waitsForDecision);
      if (!viewer.whole) conditions.push(mediates);
      break;
    case 'COMMITTEE_ITEMS':
      if (!viewer.whole) conditions.push(sql`false`);
      break;
    default:
      if (!viewer.whole) conditions.push(mine());
  }
  if (where.testId) conditions.push(eq(table.testId, where.testId));
  if (where.itemId) conditions.push(eq(table.itemId, where.itemId));
  if (where.status) conditions.push(sql`${table.status} = ${where.status}`);
  if (where.marked !== undefined) conditions.push(mine(where.marked));
  return conditions;
}

export async function listEntries(
  db: Db,
  phaseId: string,
  type: string,
  viewer: { id: string; whole: boolean },
  where: ListWhere,
  /** Without: every row (a list the service narrows further, deciders.ts). */
  page?: { limit: number; skip: number },
): Promise<EntryRow[]> {
  const rows = db
    .select()
    .from(reviewEntries)
    .where(and(...listConditions(reviewEntries, 'review', phaseId, type, viewer, where)))
    .orderBy(asc(reviewEntries.testId), asc(reviewEntries.itemIndexInTest), asc(reviewEntries.code))
    .$dynamic();
  return page ? rows.limit(page.limit).offset(page.skip) : rows;
}

export async function countEntries(
  db: Db,
  phaseId: string,
  type: string,
  viewer: { id: string; whole: boolean },
  where: ListWhere,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(reviewEntries)
    .where(and(...listConditions(reviewEntries, 'review', phaseId, type, viewer, where)));
  return Number(row?.n ?? 0);
}

export async function listAppeals(
  db: Db,
  phaseId: string,
  type: string,
  viewer: { id: string; whole: boolean },
  where: ListWhere,
  /** Without: every row (a list the service narrows further, deciders.ts). */
  page?: { limit: number; skip: number },
): Promise<AppealRow[]> {
  const rows = db
    .select()
    .from(reviewAppeals)
    .where(and(...listConditions(reviewAppeals, 'appeal', phaseId, type, viewer, where)))
    .orderBy(asc(reviewAppeals.testId), asc(reviewAppeals.itemIndexInTest), asc(reviewAppeals.code))
    .$dynamic();
  return page ? rows.limit(page.limit).offset(page.skip) : rows;
}

export async function countAppeals(
  db: Db,
  phaseId: string,
  type: string,
  viewer: { id: string; whole: boolean },
  where: ListWhere,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(reviewAppeals)
    .where(and(...listConditions(reviewAppeals, 'appeal', phaseId, type, viewer, where)));
  return Number(row?.n ?? 0);
}

// ---------------------------------------------------------------------------------------
// Appeals

export async function lockAppeal(db: Db, phaseId: string, id: string) {
  const [row] = await db
    .select()
    .from(reviewAppeals)
    .where(and(eq(reviewAppeals.id, id), eq(reviewAppeals.phaseId, phaseId)))
    .for('update');
  return row;
}

export async function findAppeal(db: Db, phaseId: string, id: string) {
  const [row] = await db
    .select()
    .from(reviewAppeals)
    .where(and(eq(reviewAppeals.id, id), eq(reviewAppeals.phaseId, phaseId)));
  return row;
}

/** Inserts the appeal unless the item already has one; answers the new row or undefined. */
export async function insertAppeal(db: Db, row: typeof reviewAppeals.$inferInsert) {
  const [inserted] = await db.insert(reviewAppeals).values(row).onConflictDoNothing().returning();
  return inserted;
}

export async function updateAppeal(db: Db, id: string, patch: Partial<AppealRow>) {
  const [row] = await db
    .update(reviewAppeals)
    .set({ ...patch, version: sql`${reviewAppeals.version} + 1`, updatedAt: sql`now()` })
    .where(eq(reviewAppeals.id, id))
    .returning();
  if (!row) throw new Error('appeal not updated');
  return row;
}

/** Holds one student's paper (test) for the transaction while its appeals are weighed. */
export async function lockPaperAppeals(db: Db, testId: string, studentId: string) {
  await db.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`paper-appeals:${testId}:${studentId}`}))`,
  );
}

export async function findStudentAppeals(db: Db, testId: string, studentId: string) {
  return db
    .select()
    .from(reviewAppeals)
    .where(and(eq(reviewAppeals.testId, testId), eq(reviewAppeals.studentId, studentId)));
}

/** How many committee appeals on an item wait for the exam's admins. */
export async function countCommitteeAppeals(db: Db, itemId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(reviewAppeals)
    .where(
      and(
        eq(reviewAppeals.itemId, itemId),
        eq(reviewAppeals.kind, 'committee'),
        eq(reviewAppeals.status, 'pending'),
      ),
    );
  return Number(row?.n ?? 0);
}

/** Pending committee appeals on an item, locked. */
export async function lockCommitteeAppeals(db: Db, itemId: string) {
  return db
    .select()
    .from(reviewAppeals)
    .where(
      and(
        eq(reviewAppeals.itemId, itemId),
        eq(reviewAppeals.kind, 'committee'),
        eq(reviewAppeals.status, 'pending'),
      ),
    )
    .orderBy(asc(reviewAppeals.id))
    .for('update');
}

// ---------------------------------------------------------------------------------------
// What a marker needs to see

/** A test with its phase, for a student's result and appeals. */
export async function findTestWithPhase(db: Db, testId: string) {
  const [row] = await db
    .select({ test: tests, phase: phases, examId: editions.examId })
    .from(tests)
    .innerJoin(phases, eq(phases.id, tests.phaseId))
    .innerJoin(editions, eq(editions.id, phases.editionId))
    .where(and(eq(tests.id, testId), isNull(phases.deletedAt)));
  return row;
}

export async function hasTestResult(db: Db, testId: string, studentId: string) {
  const [row] = await db
    .select({ points: testResults.points })
    .from(testResults)
    .where(and(eq(testResults.testId, testId), eq(testResults.studentId, studentId)));
  return row !== undefined;
}

/** A test's items in order, with their points and type. */
export async function findTestItems(db: Db, testId: string) {
  return db
    .select({
      itemId: testItems.questionId,
      position: testItems.position,
      points: testItems.score,
      itemType: questions.itemType,
      itemQ: questions.itemQ,
      itemAnswers: questions.itemAnswers,
    })
    .from(testItems)
    .innerJoin(questions, eq(questions.id, testItems.questionId))
    .where(eq(testItems.testId, testId))
    .orderBy(asc(testItems.position));
}

/** What one student answered on each item of a test (typed or chosen; pages live in uploads). */
export async function findSubmittedAnswers(db: Db, testId: string, studentId: string) {
  const rows = await db
    .select({ itemId: answers.questionId, submitted: answers.submittedAnswer })
    .from(answers)
    .where(and(eq(answers.testId, testId), eq(answers.studentId, studentId)));
  // Chosen options or typed text, as the player stored them.
  return new Map(rows.map((r) => [r.itemId, r.submitted as number[] | string | null]));
}

/** A student's answer to one item of a test. */
export async function findAnswer(db: Db, testId: string, studentId: string, itemId: string) {
  const [row] = await db
    .select()
    .from(answers)
    .where(
      and(
        eq(answers.testId, testId),
        eq(answers.studentId, studentId),
        eq(answers.questionId, itemId),
      ),
    )
    .for('share');
  return row;
}

export async function findAnswerById(db: Db, id: string) {
  const [row] = await db.select().from(answers).where(eq(answers.id, id));
  return row;
}

export async function findQuestion(db: Db, id: string) {
  const [row] = await db.select().from(questions).where(eq(questions.id, id));
  return row;
}

/** The question as drawn into one of the phase's tests (its points there), if it is. */
export async function findPhaseItem(db: Db, phaseId: string, itemId: string) {
  const rows = await db
    .select({ testId: testItems.testId, points: testItems.score, position: testItems.position })
    .from(testItems)
    .innerJoin(tests, eq(tests.id, testItems.testId))
    .where(and(eq(tests.phaseId, phaseId), eq(testItems.questionId, itemId)));
  return rows;
}

export async function findFiles(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(files)
    .where(inArray(files.id, [...ids]));
}

export async function findRubric(db: Db, itemId: string) {
  const [row] = await db.select().from(questionRubrics).where(eq(questionRubrics.itemId, itemId));
  return row;
}

export async function saveRubric(
  db: Db,
  itemId: string,
  criteria: { id: string; label: string; points: number }[],
  by: string,
) {
  const [row] = await db
    .insert(questionRubrics)
    .values({ itemId, criteria, updatedBy: by })
    .onConflictDoUpdate({
      target: questionRubrics.itemId,
      set: { criteria, updatedBy: by, updatedAt: sql`now()` },
    })
    .returning();
  if (!row) throw new Error('rubric not saved');
  return row;
}

/** The audit trail of one entry or appeal, oldest first. */
export async function findHistory(db: Db, entityType: string, entityId: string) {
  return db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityType, entityType), eq(auditEvents.entityId, entityId)))
    .orderBy(asc(auditEvents.at), asc(auditEvents.id));
}

export async function findPeople(db: Db, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, typeof users.$inferSelect>();
  const rows = await db
    .select()
    .from(users)
    .where(inArray(users.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r]));
}

// ---------------------------------------------------------------------------------------
// Progress

export async function progressOfQuestions(db: Db, phaseId: string) {
  const result = await db.execute(sql`
    select e.item_id, e.test_id, min(e.item_index_in_test)::int as idx,
      count(*)::int as total,
      count(*) filter (where e.status <> 'marking')::int as marked,
      count(*) filter (where e.status = 'needs_mediation')::int as needs_mediation,
      count(*) filter (where e.status = 'final')::int as final,
      (select count(*)::int from ${reviewAppeals} a where a.phase_id = ${phaseId}
        and a.item_id = e.item_id and a.test_id = e.test_id and a.status = 'pending')
        as appeals_pending,
      (select count(*)::int from ${reviewAppeals} a where a.phase_id = ${phaseId}
        and a.item_id = e.item_id and a.test_id = e.test_id and a.status = 'needs_mediation')
        as appeals_mediation,
      (select count(*)::int from ${reviewAppeals} a where a.phase_id = ${phaseId}
        and a.item_id = e.item_id and a.test_id = e.test_id and a.status = 'resolved')
        as appeals_resolved
    from ${reviewEntries} e where e.phase_id = ${phaseId}
    group by e.test_id, e.item_id
    order by e.test_id, idx`);
  return rowsOf<{
    item_id: string;
    test_id: string;
    idx: number;
    total: number;
    marked: number;
    needs_mediation: number;
    final: number;
    appeals_pending: number;
    appeals_mediation: number;
    appeals_resolved: number;
  }>(result);
}

/** Each marker's assigned and given marks (both rounds) and mediations waiting for them. */
export async function progressOfReviewers(db: Db, phaseId: string) {
  const result = await db.execute(sql`
    with marks as (
      select m.reviewer_id, m.score from ${reviewMarks} m
      join ${reviewEntries} e on e.id = m.parent_id
      where e.phase_id = ${phaseId} and m.round = 'review'
      union all
      select m.reviewer_id, m.score from ${reviewMarks} m
      join ${reviewAppeals} a on a.id = m.parent_id
      where a.phase_id = ${phaseId} and m.round = 'appeal'
    ),
    mediations as (
      select q.mediator_teacher_id as teacher_id, count(*)::int as n
      from (select item_id from ${reviewEntries} where phase_id = ${phaseId}
              and status = 'needs_mediation'
            union all
            select item_id from ${reviewAppeals} where phase_id = ${phaseId}
              and status = 'needs_mediation') w
      join ${questions} q on q.id = w.item_id
      where q.mediator_teacher_id is not null
      group by q.mediator_teacher_id
    ),
    per as (
      select reviewer_id as teacher_id, count(*)::int as assigned,
        count(score)::int as marked from marks group by reviewer_id
    )
    select coalesce(p.teacher_id, md.teacher_id) as teacher_id,
      coalesce(p.assigned, 0)::int as assigned, coalesce(p.marked, 0)::int as marked,
      coalesce(md.n, 0)::int as mediations_open
    from per p full join mediations md on md.teacher_id = p.teacher_id`);
  return rowsOf<{ teacher_id: string; assigned: number; marked: number; mediations_open: number }>(
    result,
  );
}

/**
 * A teacher's marking work still open in any phase: marks assigned and not given (first marking
 * and appeals) and mediations waiting for them as the question's mediator.
 */
export async function countOpenWork(
  db: Db,
  teacherId: string,
): Promise<{ openMarks: number; pendingMediations: number }> {
  const result = await db.execute(sql`
    select
      (select count(*)::int from ${reviewMarks} m
        left join ${reviewEntries} e on m.round = 'review' and e.id = m.parent_id
        left join ${reviewAppeals} a on m.round = 'appeal' and a.id = m.parent_id
        where m.reviewer_id = ${teacherId} and m.score is null
          and (e.status = 'marking' or a.status = 'pending')) as "openMarks",
      (select count(*)::int from ${reviewEntries} e
        join ${questions} q on q.id = e.item_id
        where q.mediator_teacher_id = ${teacherId} and e.status = 'needs_mediation')
      + (select count(*)::int from ${reviewAppeals} a
        join ${questions} q on q.id = a.item_id
        where q.mediator_teacher_id = ${teacherId} and a.status = 'needs_mediation'
          and a.kind = 'remark') as "pendingMediations"`);
  const [row] = rowsOf<{ openMarks: number; pendingMediations: number }>(result);
  return { openMarks: row?.openMarks ?? 0, pendingMediations: row?.pendingMediations ?? 0 };
}
/** A teacher's marks still to give in a phase (both rounds), optionally of one question. */
export async function findOpenMarks(
  db: Db,
  phaseId: string,
  teacherId: string,
  itemId: string | undefined,
) {
  const result = await db.execute(sql`
    select m.id, m.parent_id, m.round, coalesce(e.item_id, a.item_id) as item_id,
      coalesce(e.student_id, a.student_id) as student_id, a.entry_id
    from ${reviewMarks} m
    left join ${reviewEntries} e on m.round = 'review' and e.id = m.parent_id
    left join ${reviewAppeals} a on m.round = 'appeal' and a.id = m.parent_id
    where m.reviewer_id = ${teacherId} and m.score is null
      and ((e.phase_id = ${phaseId} and e.status = 'marking')
        or (a.phase_id = ${phaseId} and a.status = 'pending'))
      ${itemId ? sql`and coalesce(e.item_id, a.item_id) = ${itemId}` : sql``}
    order by m.parent_id
    for update of m`);
  return rowsOf<{
    id: string;
    parent_id: string;
    round: Round;
    item_id: string;
    student_id: string;
    entry_id: string | null;
  }>(result);
}

/** Answers of a key-scored item in a phase's tests, with the student and the item's points. */
export async function findKeyScoredAnswers(db: Db, phaseId: string, itemId: string) {
  const result = await db.execute(sql`
    select a.id, a.test_id, a.student_id, a.submitted_answer::text as answer_text, a.score,
      a.score_origin, ti.score as points, u.given_name, u.family_name
    from ${answers} a
    join ${tests} t on t.id = a.test_id
    join ${testItems} ti on ti.test_id = a.test_id and ti.question_id = a.question_id
    join ${users} u on u.id = a.student_id
    where t.phase_id = ${phaseId} and a.question_id = ${itemId} and a.score_origin = 'auto'
      and exists (select 1 from ${testResults} r
        where r.test_id = a.test_id and r.student_id = a.student_id)
    order by a.test_id, a.student_id`);
  return rowsOf<{
    id: string;
    test_id: string;
    student_id: string;
    answer_text: string | null;
    score: string | number | null;
    score_origin: string;
    points: string | number;
    given_name: string | null;
    family_name: string | null;
  }>(result);
}

// ---------------------------------------------------------------------------------------
// A student's data (the personal-data export and anonymising)

/** The marking of a student's answers: state and final score, never who marked. */
export async function findStudentEntries(db: Db, studentId: string) {
  return db
    .select({
      test: tests.name,
      testId: reviewEntries.testId,
      questionId: reviewEntries.itemId,
      itemIndexInTest: reviewEntries.itemIndexInTest,
      maxScore: reviewEntries.maxScore,
      state: reviewEntries.status,
      finalScore: reviewEntries.finalScore,
      finalBy: reviewEntries.finalBy,
      updatedAt: reviewEntries.updatedAt,
    })
    .from(reviewEntries)
    .innerJoin(tests, eq(tests.id, reviewEntries.testId))
    .where(eq(reviewEntries.studentId, studentId))
    .orderBy(asc(reviewEntries.testId), asc(reviewEntries.itemIndexInTest));
}

/** A student's appeals: their reason, state and result, never who marked or decided. */
export async function findStudentAppealsOf(db: Db, studentId: string) {
  return db
    .select({
      test: tests.name,
      testId: reviewAppeals.testId,
      questionId: reviewAppeals.itemId,
      itemIndexInTest: reviewAppeals.itemIndexInTest,
      kind: reviewAppeals.kind,
      reason: reviewAppeals.reason,
      filedAt: reviewAppeals.filedAt,
      state: reviewAppeals.status,
      outcome: reviewAppeals.outcome,
      maxScore: reviewAppeals.maxScore,
      originalScore: reviewAppeals.originalScore,
      resultScore: reviewAppeals.resultScore,
      finalScore: reviewAppeals.finalScore,
      resolvedAt: reviewAppeals.resolvedAt,
    })
    .from(reviewAppeals)
    .innerJoin(tests, eq(tests.id, reviewAppeals.testId))
    .where(eq(reviewAppeals.studentId, studentId))
    .orderBy(asc(reviewAppeals.filedAt), asc(reviewAppeals.id));
}

/** Replaces the student's own words in their appeals. */
export async function redactAppealReasons(db: Db, studentId: string, text: string) {
  await db
    .update(reviewAppeals)
    .set({ reason: text })
    .where(eq(reviewAppeals.studentId, studentId));
}

/** The phase's entries still without a final score, locked (closing settles them). */
export async function lockOpenEntries(db: Db, phaseId: string) {
  return db
    .select()
    .from(reviewEntries)
    .where(
      and(
        eq(reviewEntries.phaseId, phaseId),
        inArray(reviewEntries.status, ['marking', 'needs_mediation']),
      ),
    )
    .orderBy(asc(reviewEntries.id))
    .for('update');
}

/** The phase's appeals not yet resolved, locked (closing settles them). */
export async function lockOpenAppeals(db: Db, phaseId: string) {
  return db
    .select()
    .from(reviewAppeals)
    .where(
      and(
        eq(reviewAppeals.phaseId, phaseId),
        inArray(reviewAppeals.status, ['pending', 'needs_mediation']),
      ),
    )
    .orderBy(asc(reviewAppeals.id))
    .for('update');
}
