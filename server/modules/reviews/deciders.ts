import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { conflictsOf } from './assign.js';
import * as repo from './reviews.repo.js';

/** Who is looking, and how they stand on the competition. */
export type Viewer = { id: string; whole: boolean; manage: boolean };

// Who may put a score on an answer, beyond being assigned to it (README "Security"):
// - nobody marks, mediates or decides the answer of a student they coordinate, or their team
//   does (the conflict rule of assign.ts `conflictsOf`), staff and exam admins included;
// - an appeal is mediated by someone who neither marked nor mediated the answer before, in
//   either round, and a first-round entry by someone who did not mark it.
// Marks too far apart go to the question's mediator. When the rules above bar that mediator
// (they mediated the answer the first time, marked it, or coordinate the student), the exam's
// admins decide instead, as they decide committee appeals: any admin of the exam whom the rules
// do not bar. The question's other grading teachers are not asked: an appeal has taken two of
// them already, the first round two more, and a question often has no others.
// An appeal that found fewer than two teachers free to re-mark it (`lacksMarkers`) would wait
// for a second mark forever: the exam's admins decide it as it is, with the mark it has if any.

export const conflictOfInterest = () =>
  new AppError('CONFLICT_OF_INTEREST', "The answer is of the caller's own student");

/** An entry or an appeal as the rules read it. */
type Decided = { id: string; itemId: string; studentId: string; entryId?: string | null };

/** Re-markers an appeal needs before its marks can settle it. */
const REMARKERS = 2;

/**
 * Whether an appeal waits for re-markers it cannot get: a remark appeal, still open, with fewer
 * than two assigned (the question has no more teachers free of the answer and the student).
 */
export const lacksMarkers = (
  appeal: { kind: string; status: string },
  marks: readonly { reviewerId: string }[],
) => appeal.kind === 'remark' && appeal.status === 'pending' && marks.length < REMARKERS;

/** Who decides one entry or appeal, and who may not touch it. */
export type Deciding = {
  /** The question's mediator, when the rules let them decide it; else null. */
  mediatorId: string | null;
  /** Whether the exam's admins decide it (the question's mediator is barred or missing). */
  byAdmins: boolean;
  /** Those who marked it, or marked or mediated the answer before (an appeal's first round). */
  earlierHands: Set<string>;
  /** Of the question's mediator and the people asked about, those with a conflict. */
  conflicted: Set<string>;
};

/** The teachers among `teacherIds` the conflict rule keeps off the student's answer. */
export async function conflictedAmong(tx: Db, studentId: string, teacherIds: readonly string[]) {
  const codes = await repo.findTeacherCodes(tx, teacherIds);
  const teams = await repo.findStudentTeams(tx, [studentId]);
  return conflictsOf(teams.get(studentId), codes, teacherIds);
}

/** Of these students, those whose answers the conflict rule keeps from the teacher. */
export async function conflictedStudents(
  tx: Db,
  teacherId: string,
  studentIds: readonly string[],
): Promise<Set<string>> {
  const unique = [...new Set(studentIds)];
  if (unique.length === 0) return new Set();
  const codes = await repo.findTeacherCodes(tx, [teacherId]);
  const teams = await repo.findStudentTeams(tx, unique);
  return new Set(
    unique.filter((id) => conflictsOf(teams.get(id), codes, [teacherId]).has(teacherId)),
  );
}

/** For each row, who decides it; `people` are checked for conflicts too (the caller). */
export async function decidingOf(
  tx: Db,
  rows: readonly Decided[],
  people: readonly string[],
): Promise<Map<string, Deciding>> {
  const out = new Map<string, Deciding>();
  if (rows.length === 0) return out;
  const entryIds = rows.flatMap((r) => (r.entryId ? [r.entryId] : []));
  // One after another: `tx` may be a transaction, whose one connection runs a query at a time.
  const marks = await repo.findMarks(tx, [...rows.map((r) => r.id), ...entryIds]);
  const entryMediators = await repo.findEntryMediators(tx, entryIds);
  const mediators = await repo.findMediators(
    tx,
    rows.map((r) => r.itemId),
  );
  const everyone = [
    ...new Set([...people, ...[...mediators.values()].flatMap((m) => (m ? [m] : []))]),
  ];
  const codes = await repo.findTeacherCodes(tx, everyone);
  const teams = await repo.findStudentTeams(
    tx,
    rows.map((r) => r.studentId),
  );
  for (const r of rows) {
    const hands = [r.id, ...(r.entryId ? [r.entryId] : [])].flatMap((id) =>
      (marks.get(id) ?? []).map((m) => m.reviewerId),
    );
    const firstMediator = r.entryId ? entryMediators.get(r.entryId) : undefined;
    const earlierHands = new Set([...hands, ...(firstMediator ? [firstMediator] : [])]);
    const mediator = mediators.get(r.itemId) ?? null;
    const conflicted = conflictsOf(teams.get(r.studentId), codes, [
      ...people,
      ...(mediator ? [mediator] : []),
    ]);
    // An appeal row (it names its entry) short of re-markers is the admins' to decide.
    const short = Boolean(r.entryId) && (marks.get(r.id) ?? []).length < REMARKERS;
    const free =
      !short && mediator !== null && !earlierHands.has(mediator) && !conflicted.has(mediator);
    out.set(r.id, {
      mediatorId: free ? mediator : null,
      byAdmins: !free,
      earlierHands,
      conflicted,
    });
  }
  return out;
}

/** Whether the viewer decides a row whose marks differ too much. */
export function decides(d: Deciding | undefined, viewer: Viewer): boolean {
  if (!d || d.earlierHands.has(viewer.id) || d.conflicted.has(viewer.id)) return false;
  return d.mediatorId === viewer.id || (d.byAdmins && viewer.manage);
}

/**
 * The lists that show a marker only what waits for their decision: they hold a row when the
 * rules above let the viewer decide it (staff, who oversee the phase, see every row).
 */
const DECIDING_LISTS = new Set(['MEDIATION_ITEMS', 'NEEDS_MEDIATION_ITEMS']);
export const listedByDeciding = (type: string, viewer: Viewer) =>
  !viewer.whole && DECIDING_LISTS.has(type);

/**
 * Of the rows a viewer may be asked to decide, those the rules let them decide: what their
 * lists, counts and open work hold, by the same rule as the writes.
 */
export async function decidableBy<R extends Decided>(
  tx: Db,
  rows: readonly R[],
  viewer: Viewer,
): Promise<R[]> {
  const deciding = await decidingOf(tx, rows, [viewer.id]);
  return rows.filter((r) => decides(deciding.get(r.id), viewer));
}
