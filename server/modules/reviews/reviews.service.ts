import type { z } from 'zod';
import {
  type AppealCountWhere,
  type AppealDecisionInput,
  type AppealDetail,
  type AppealInput,
  appealCountWhereSchema,
  appealListFilterSchema,
  averageMark,
  type ContestationEntry,
  DEFAULT_MARK_STEP,
  type HistoryEvent,
  type InsufficientTeachersDetail,
  isInStep,
  type KeyFixInput,
  type KeyFixPreview,
  type KeyFixResult,
  type MarkInput,
  needsMediation,
  type ReassignInput,
  type ReassignResult,
  type ReminderInput,
  type ReminderResult,
  type ReviewDetail,
  type ReviewEntry,
  type ReviewProgress,
  type Rubric,
  type RubricInput,
  reviewCountWhereSchema,
  reviewListFilterSchema,
  type StudentResult,
  type StudentReviewItem,
} from '../../../shared/schemas/reviews.js';
import { STATEMENT_FILE_PREFIX } from '../../../shared/statement.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import type { Clock } from '../../lib/clock.js';
import {
  AppError,
  fieldError,
  forbidden,
  notFound,
  validationFailed,
  zodIssues,
} from '../../lib/errors.js';
import type { FileStorage } from '../../lib/files/storage.js';
import { buildZip } from '../../lib/files/zip.js';
import { uuidv7 } from '../../lib/ids.js';
import type { MailOutbox } from '../../lib/mail/outbox.js';
import type { PhaseIds } from '../../lib/route-params.js';
import {
  canManageExam,
  findPhasePath,
  loadExamAccess,
  type ReviewedPhase,
  seesWholeExam,
} from '../exams/index.js';
import type { ResourceMgmt } from '../questions/index.js';
import {
  findItemScores,
  findTestResults,
  type MarkedAnswer,
  recordMarkedScore,
  rescoreTest,
  scoreAnswer,
  settleUnhandedItems,
} from '../results/index.js';
import { anonymousCode, conflictsOf, pickReviewers } from './assign.js';
import * as repo from './reviews.repo.js';
import {
  type AuditRow,
  appealView,
  entryView,
  historyView,
  type PhaseSettings,
  seesAll,
  type Viewer,
} from './reviews.view.js';

export type ReviewsDeps = {
  db: Db;
  clock: Clock;
  storage: FileStorage;
  outbox: MailOutbox;
  /** The question bank's public functions (teachers of a question, the key fix). */
  questions: ResourceMgmt['questions'];
  /** Where links in mails point (the configured public origin). */
  origin: string;
};

type PhasePath = NonNullable<Awaited<ReturnType<typeof findPhasePath>>>;
type Scope = PhasePath & { viewer: Viewer; settings: PhaseSettings };

const REVIEWERS_PER_ANSWER = 2;
const DEFAULT_LIMIT = 10;

function parseJson<S extends z.ZodType>(text: string | undefined, schema: S, name: string) {
  let value: unknown = {};
  if (text !== undefined && text !== '') {
    try {
      value = JSON.parse(text);
    } catch {
      throw validationFailed([{ code: 'invalid', path: [name] }]);
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw validationFailed(zodIssues(parsed.error).map((i) => ({ ...i, path: [name, ...i.path] })));
  }
  return parsed.data as z.infer<S>;
}

const settingsOf = (phase: PhasePath['phase']): PhaseSettings => ({
  markStep: phase.markStep > 0 ? phase.markStep : DEFAULT_MARK_STEP,
  threshold: phase.mediationThreshold,
  appealMinChange: phase.appealMinChange,
});

/** The mark's checks: in range, in the phase's step, criteria of the rubric adding up. */
function checkMark(
  input: MarkInput,
  maxScore: number,
  step: number,
  rubric: { id: string; points: number }[],
) {
  const score = input.reviewerScore;
  if (score > maxScore + 1e-9) throw fieldError({ reviewerScore: ['out_of_range'] });
  if (!isInStep(score, step)) throw fieldError({ reviewerScore: ['not_in_step'] });
  const criteria = input.criteria ?? [];
  if (criteria.length > 0) {
    const byId = new Map(rubric.map((c) => [c.id, c.points]));
    if (new Set(criteria).size !== criteria.length || criteria.some((c) => !byId.has(c))) {
      throw fieldError({ criteria: ['invalid'] });
    }
    const sum = criteria.reduce((s, c) => s + Math.round((byId.get(c) ?? 0) * 100), 0);
    if (sum !== Math.round(score * 100)) throw fieldError({ criteria: ['score_sum'] });
  }
  return { score: Math.round(score * 100) / 100, criteria, note: input.note ?? null };
}

const stale = () => new AppError('REVIEW_CHANGED', 'The entry changed since it was read');
const closed = () => new AppError('REVIEW_CLOSED', 'The entry no longer takes this write');
const notAllowed = (reason: 'window' | 'already_appealed' | 'no_final_score') =>
  new AppError('APPEAL_NOT_ALLOWED', 'The item cannot be appealed', { reason });

const asAudit = (rows: Awaited<ReturnType<typeof repo.findHistory>>): AuditRow[] =>
  rows.map((r) => ({
    id: r.id,
    actorId: r.actorId,
    action: r.action,
    before: r.before,
    after: r.after,
    reason: r.reason,
    at: r.at,
  }));

/** The test-review service (SPEC.md §7; shared/schemas/reviews.ts lists every call). */
export function reviewsService(deps: ReviewsDeps) {
  const { db, clock, storage, outbox, questions, origin } = deps;

  /** The phase and how the caller stands on it: its markers and staff, anyone else 404. */
  async function requireScope(actor: Actor, ids: PhaseIds): Promise<Scope> {
    if (actor.type === 'student') throw notFound('phase');
    const path = await findPhasePath(db, ids.examId, ids.editionId, ids.phaseId);
    if (!path) throw notFound('phase');
    const access = await loadExamAccess(db, actor, path.exam.id);
    const whole = seesWholeExam(access);
    if (!whole && !(await repo.isPhaseMarker(db, path.phase.id, actor.id))) {
      throw notFound('phase');
    }
    return {
      ...path,
      viewer: { id: actor.id, whole, manage: canManageExam(access) },
      settings: settingsOf(path.phase),
    };
  }

  async function entriesAsSeen(tx: Db, scope: Scope, rows: repo.EntryRow[]) {
    const ids = rows.map((r) => r.id);
    const [marks, appealed, mediators] = await Promise.all([
      repo.findMarks(tx, ids),
      repo.entriesWithAppeal(tx, ids),
      repo.findMediators(
        tx,
        rows.map((r) => r.itemId),
      ),
    ]);
    return rows.flatMap((r) => {
      const view = entryView(
        r,
        marks.get(r.id) ?? [],
        mediators.get(r.itemId) ?? null,
        appealed.has(r.id),
        scope.settings,
        scope.viewer,
      );
      return view ? [view] : [];
    });
  }

  async function appealsAsSeen(tx: Db, scope: Scope, rows: repo.AppealRow[]) {
    const [marks, mediators] = await Promise.all([
      repo.findMarks(
        tx,
        rows.map((r) => r.id),
      ),
      repo.findMediators(
        tx,
        rows.map((r) => r.itemId),
      ),
    ]);
    return rows.flatMap((r) => {
      const view = appealView(
        r,
        marks.get(r.id) ?? [],
        mediators.get(r.itemId) ?? null,
        scope.settings,
        scope.viewer,
      );
      return view ? [view] : [];
    });
  }

  async function requireEntryView(tx: Db, scope: Scope, reviewId: string) {
    const row = await repo.findEntry(tx, scope.phase.id, reviewId);
    if (!row) throw notFound('review');
    const [view] = await entriesAsSeen(tx, scope, [row]);
    if (!view) throw notFound('review');
    return { row, view };
  }

  async function requireAppealView(tx: Db, scope: Scope, reviewId: string) {
    const row = await repo.findAppeal(tx, scope.phase.id, reviewId);
    if (!row) throw notFound('appeal');
    const [view] = await appealsAsSeen(tx, scope, [row]);
    if (!view) throw notFound('appeal');
    return { row, view };
  }

  async function rubricCriteria(tx: Db, itemId: string) {
    return (await repo.findRubric(tx, itemId))?.criteria ?? [];
  }

  /** Tells the student their score changed (after the change commits with the mail). */
  async function mailStudent(tx: Db, studentId: string, testId: string, testName: string) {
    const [student] = [...(await repo.findPeople(tx, [studentId])).values()];
    if (!student || student.deletedAt) return;
    await outbox.enqueue(tx, {
      template: 'score-changed',
      to: student.email,
      userId: student.id,
      locale: student.uiLocale ?? student.locale,
      params: { test: testName, link: `${origin}/teste/${testId}/rezultat` },
    });
  }

  async function testName(tx: Db, testId: string) {
    return (await repo.findTestWithPhase(tx, testId))?.test.name ?? '';
  }

  /** Records an answer's final score through the results module and tells the student. */
  async function recordFinal(
    tx: Db,
    answer: MarkedAnswer,
    score: number,
    origin: 'marked' | 'mediated' | 'appealed',
    at: Date,
  ) {
    const { before } = await recordMarkedScore(tx, answer, score, origin, at);
    // A first score tells the student once their whole test is marked; a change, at once.
    const complete =
      before !== null ||
      (await findTestResults(tx, answer.studentId, [answer.testId], at)).get(answer.testId)
        ?.awaitingItems === 0;
    if (before !== score && complete) {
      await mailStudent(tx, answer.studentId, answer.testId, await testName(tx, answer.testId));
    }
    return before;
  }

  const answerOf = (row: repo.EntryRow | repo.AppealRow): MarkedAnswer => ({
    answerId: row.answerId ?? '',
    testId: row.testId,
    studentId: row.studentId,
    itemId: row.itemId,
  });

  /** Where an appeal's marking comes to: the original stays unless it moved enough. */
  function appealOutcome(original: number, result: number, maxScore: number, minShare: number) {
    const minCents = Math.round(minShare * maxScore * 100);
    const diff = Math.abs(Math.round(result * 100) - Math.round(original * 100));
    if (diff === 0 || diff < minCents) return { outcome: 'kept' as const, final: original };
    return { outcome: 'changed' as const, final: result };
  }

  async function resolveRemark(
    tx: Db,
    row: repo.AppealRow,
    scope: Scope,
    result: number,
    by: string,
    at: Date,
  ) {
    const original = Number(row.originalScore ?? 0);
    const { outcome, final } = appealOutcome(
      original,
      result,
      Number(row.maxScore),
      scope.settings.appealMinChange,
    );
    if (outcome === 'changed') await recordFinal(tx, answerOf(row), final, 'appealed', at);
    await appendAudit(tx, {
      actorId: by,
      action: 'appeal.resolved',
      entityType: 'review_appeal',
      entityId: row.id,
      before: { score: original },
      after: { score: final, result, outcome },
    });
    return {
      resultScore: result,
      finalScore: final,
      outcome,
      status: 'resolved' as const,
      resolvedAt: at,
    };
  }

  return {
    // ------------------------------------------------------------------------------------
    // Start of review (called by exam-mgmt in the transaction that sets reviewStarted)

    /**
     * Checks that every question to mark has two grading teachers and a mediator (else 409
     * INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS with one detail per missing field), that an
     * online phase's tests are over (TESTS_STILL_RUNNING), then gives each answer waiting for
     * marking its two reviewers. A hybrid test's items with no page are decided at 0.
     */
    async beginReview(tx: Db, phase: ReviewedPhase, actorId: string, at: Date) {
      if (phase.type === 'online' && (await repo.hasRunningTests(tx, phase.id, at))) {
        throw new AppError('TESTS_STILL_RUNNING', 'A test of the phase is still open');
      }
      const missing: InsufficientTeachersDetail[] = await questions.missingQuestionTeachers(
        phase.id,
        tx,
        phase.type === 'online',
      );
      if (missing.length > 0) {
        throw new AppError(
          'INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS',
          'Every question needs two grading teachers and a mediator',
          missing,
        );
      }
      if (phase.type === 'hybrid') {
        for (const testId of await repo.findPhaseTestIds(tx, phase.id)) {
          await settleUnhandedItems(tx, testId, at);
        }
      }
      const toMark = await repo.findAnswersToMark(tx, phase.id);
      if (toMark.length === 0) return 0;
      const itemIds = [...new Set(toMark.map((a) => a.itemId))];
      const teachers = await questions.questionTeachersOf(itemIds, tx);
      const pools = [...teachers.values()].flatMap((t) => t.gradingTeachers);
      const [codes, teams] = await Promise.all([
        repo.findTeacherCodes(tx, pools),
        repo.findStudentTeams(
          tx,
          toMark.map((a) => a.studentId),
        ),
      ]);
      const loads = new Map<string, Map<string, number>>();
      const entries: Parameters<typeof repo.insertEntries>[1] = [];
      const marks: Parameters<typeof repo.insertMarks>[1] = [];
      const used = new Set<string>();
      for (const answer of toMark) {
        const t = teachers.get(answer.itemId);
        const pool = t?.gradingTeachers ?? [];
        const load = loads.get(answer.itemId) ?? new Map<string, number>();
        loads.set(answer.itemId, load);
        const avoid = conflictsOf(teams.get(answer.studentId), codes, pool);
        if (t?.mediatorTeacher) avoid.add(t.mediatorTeacher);
        const picked = pickReviewers(pool, load, new Set(), avoid, REVIEWERS_PER_ANSWER);
        let code = anonymousCode();
        while (used.has(code)) code = anonymousCode();
        used.add(code);
        const id = uuidv7(at.getTime());
        entries.push({
          id,
          phaseId: phase.id,
          testId: answer.testId,
          itemId: answer.itemId,
          answerId: answer.answerId,
          studentId: answer.studentId,
          itemIndexInTest: answer.position - 1, // positions count from 1, the index from 0
          code,
          maxScore: answer.points,
        });
        picked.forEach((reviewerId, i) => {
          marks.push({
            id: uuidv7(at.getTime()),
            parentId: id,
            round: 'review',
            slot: i + 1,
            reviewerId,
          });
        });
      }
      await repo.insertEntries(tx, entries);
      await repo.insertMarks(tx, marks);
      for (const m of marks) {
        await appendAudit(tx, {
          actorId,
          action: 'review.assigned',
          entityType: 'review_entry',
          entityId: m.parentId,
          after: { slot: m.slot, reviewerId: m.reviewerId },
        });
      }
      return entries.length;
    },

    // ------------------------------------------------------------------------------------
    // Marking

    async listReviews(actor: Actor, ids: PhaseIds, filterText: string | undefined) {
      const scope = await requireScope(actor, ids);
      const filter = parseJson(filterText, reviewListFilterSchema, 'filter');
      const rows = await repo.listEntries(
        db,
        scope.phase.id,
        filter.type ?? 'REVIEW_ITEMS',
        scope.viewer,
        filter.where ?? {},
        { limit: filter.limit ?? DEFAULT_LIMIT, skip: filter.skip ?? 0 },
      );
      return entriesAsSeen(db, scope, rows);
    },

    async countReviews(actor: Actor, ids: PhaseIds, whereText: string | undefined) {
      const scope = await requireScope(actor, ids);
      const { type, ...where } = parseJson(whereText, reviewCountWhereSchema, 'where');
      return {
        count: await repo.countEntries(
          db,
          scope.phase.id,
          type ?? 'REVIEW_ITEMS',
          scope.viewer,
          where,
        ),
      };
    },

    async getReview(actor: Actor, ids: PhaseIds, reviewId: string): Promise<ReviewDetail> {
      const scope = await requireScope(actor, ids);
      const { row, view } = await requireEntryView(db, scope, reviewId);
      return {
        entry: view,
        ...(await markingMaterial(scope, row.itemId, row.answerId, view.reviewInfo.maxScore)),
      };
    },

    /** An assigned reviewer's mark; the second mark decides the entry. */
    async markReview(
      actor: Actor,
      ids: PhaseIds,
      reviewId: string,
      input: MarkInput,
    ): Promise<ReviewEntry> {
      const scope = await requireScope(actor, ids);
      await requireEntryView(db, scope, reviewId);
      return db.transaction(async (tx) => {
        const row = await repo.lockEntry(tx, scope.phase.id, reviewId);
        if (!row) throw notFound('review');
        const marks = (await repo.findMarks(tx, [row.id])).get(row.id) ?? [];
        const mine = marks.find((m) => m.reviewerId === actor.id);
        if (!mine) throw forbidden();
        if (input.version !== undefined && input.version !== row.version) throw stale();
        const appealed = (await repo.entriesWithAppeal(tx, [row.id])).has(row.id);
        if (row.status !== 'marking' || appealed) throw closed();
        const mark = checkMark(
          input,
          Number(row.maxScore),
          scope.settings.markStep,
          await rubricCriteria(tx, row.itemId),
        );
        const now = clock.now();
        await repo.updateMark(tx, mine.id, { ...mark, markedAt: now });
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'review.marked',
          entityType: 'review_entry',
          entityId: row.id,
          before: { slot: mine.slot, score: mine.score === null ? null : Number(mine.score) },
          after: { slot: mine.slot, score: mark.score, criteria: mark.criteria },
          reason: mark.note,
        });
        const given = marks.map((m) =>
          m.id === mine.id ? mark.score : m.score === null ? null : Number(m.score),
        );
        let patch: Partial<repo.EntryRow> = {};
        const [a, b] = given;
        if (given.length >= 2 && a != null && b != null) {
          const max = Number(row.maxScore);
          if (needsMediation(a, b, max, scope.settings.threshold)) {
            patch = { status: 'needs_mediation' };
          } else {
            const final = averageMark(a, b);
            patch = { status: 'final', finalScore: final, finalBy: 'average' };
            await recordFinal(tx, answerOf(row), final, 'marked', now);
            await appendAudit(tx, {
              actorId: actor.id,
              action: 'review.final',
              entityType: 'review_entry',
              entityId: row.id,
              after: { score: final, by: 'average' },
            });
          }
        }
        const updated = await repo.updateEntry(tx, row.id, patch);
        const [view] = await entriesAsSeen(tx, scope, [updated]);
        if (!view) throw notFound('review');
        return view;
      });
    },

    /** The question's mediator decides an entry whose marks differ too much. */
    async mediateReview(
      actor: Actor,
      ids: PhaseIds,
      reviewId: string,
      input: MarkInput,
    ): Promise<ReviewEntry> {
      const scope = await requireScope(actor, ids);
      await requireEntryView(db, scope, reviewId);
      return db.transaction(async (tx) => {
        const row = await repo.lockEntry(tx, scope.phase.id, reviewId);
        if (!row) throw notFound('review');
        if ((await repo.findMediator(tx, row.itemId)) !== actor.id) throw forbidden();
        if (input.version !== undefined && input.version !== row.version) throw stale();
        const appealed = (await repo.entriesWithAppeal(tx, [row.id])).has(row.id);
        if (row.status !== 'needs_mediation' || appealed) throw closed();
        const mark = checkMark(
          input,
          Number(row.maxScore),
          scope.settings.markStep,
          await rubricCriteria(tx, row.itemId),
        );
        const now = clock.now();
        await recordFinal(tx, answerOf(row), mark.score, 'mediated', now);
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'review.mediated',
          entityType: 'review_entry',
          entityId: row.id,
          before: { score: null },
          after: { score: mark.score, criteria: mark.criteria },
          reason: mark.note,
        });
        const updated = await repo.updateEntry(tx, row.id, {
          status: 'final',
          mediatorId: actor.id,
          mediatorScore: mark.score,
          mediatorNote: mark.note,
          mediatedAt: now,
          finalScore: mark.score,
          finalBy: 'mediator',
        });
        const [view] = await entriesAsSeen(tx, scope, [updated]);
        if (!view) throw notFound('review');
        return view;
      });
    },

    async reviewHistory(actor: Actor, ids: PhaseIds, reviewId: string): Promise<HistoryEvent[]> {
      const scope = await requireScope(actor, ids);
      const { row, view } = await requireEntryView(db, scope, reviewId);
      const marks = (await repo.findMarks(db, [row.id])).get(row.id) ?? [];
      const mine = marks.find((m) => m.reviewerId === actor.id);
      const events = asAudit(await repo.findHistory(db, 'review_entry', row.id));
      return historyView(
        events,
        view.myRole,
        seesAll(view.myRole, marks, actor.id),
        mine?.slot ?? null,
        scope.viewer,
      );
    },

    async reviewAnswerZip(actor: Actor, ids: PhaseIds, reviewId: string) {
      const scope = await requireScope(actor, ids);
      const { row } = await requireEntryView(db, scope, reviewId);
      return answerZip(row.answerId);
    },

    async reviewFile(actor: Actor, ids: PhaseIds, reviewId: string, fileId: string) {
      const scope = await requireScope(actor, ids);
      const { row } = await requireEntryView(db, scope, reviewId);
      return markingFile(row.itemId, row.answerId, fileId);
    },

    // ------------------------------------------------------------------------------------
    // Appeals, the markers' side

    async listAppeals(actor: Actor, ids: PhaseIds, filterText: string | undefined) {
      const scope = await requireScope(actor, ids);
      const filter = parseJson(filterText, appealListFilterSchema, 'filter');
      const rows = await repo.listAppeals(
        db,
        scope.phase.id,
        filter.type ?? 'REVIEW_ITEMS',
        scope.viewer,
        filter.where ?? {},
        { limit: filter.limit ?? DEFAULT_LIMIT, skip: filter.skip ?? 0 },
      );
      return appealsAsSeen(db, scope, rows);
    },

    async countAppeals(actor: Actor, ids: PhaseIds, whereText: string | undefined) {
      const scope = await requireScope(actor, ids);
      const { type, ...where }: AppealCountWhere = parseJson(
        whereText,
        appealCountWhereSchema,
        'where',
      );
      return {
        count: await repo.countAppeals(
          db,
          scope.phase.id,
          type ?? 'REVIEW_ITEMS',
          scope.viewer,
          where,
        ),
      };
    },

    async getAppeal(actor: Actor, ids: PhaseIds, reviewId: string): Promise<AppealDetail> {
      const scope = await requireScope(actor, ids);
      const { row, view } = await requireAppealView(db, scope, reviewId);
      const material = await markingMaterial(scope, row.itemId, row.answerId, Number(row.maxScore));
      const answer = row.answerId ? await repo.findAnswerById(db, row.answerId) : undefined;
      const submitted = answer?.submittedAnswer;
      return {
        entry: view,
        question: material.question,
        rubric: material.rubric,
        answer: {
          ...material.answer,
          submittedAnswer:
            row.kind === 'committee' && (typeof submitted === 'string' || Array.isArray(submitted))
              ? (submitted as number[] | string)
              : null,
        },
      };
    },

    async markAppeal(
      actor: Actor,
      ids: PhaseIds,
      reviewId: string,
      input: MarkInput,
    ): Promise<ContestationEntry> {
      const scope = await requireScope(actor, ids);
      await requireAppealView(db, scope, reviewId);
      return db.transaction(async (tx) => {
        const row = await repo.lockAppeal(tx, scope.phase.id, reviewId);
        if (!row) throw notFound('appeal');
        const marks = (await repo.findMarks(tx, [row.id])).get(row.id) ?? [];
        const mine = marks.find((m) => m.reviewerId === actor.id);
        if (!mine || row.kind !== 'remark') throw forbidden();
        if (input.version !== undefined && input.version !== row.version) throw stale();
        if (row.status !== 'pending') throw closed();
        const mark = checkMark(
          input,
          Number(row.maxScore),
          scope.settings.markStep,
          await rubricCriteria(tx, row.itemId),
        );
        const now = clock.now();
        await repo.updateMark(tx, mine.id, { ...mark, markedAt: now });
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'appeal.marked',
          entityType: 'review_appeal',
          entityId: row.id,
          before: { slot: mine.slot, score: mine.score === null ? null : Number(mine.score) },
          after: { slot: mine.slot, score: mark.score, criteria: mark.criteria },
          reason: mark.note,
        });
        const given = marks.map((m) =>
          m.id === mine.id ? mark.score : m.score === null ? null : Number(m.score),
        );
        let patch: Partial<repo.AppealRow> = {};
        const [a, b] = given;
        if (given.length >= 2 && a != null && b != null) {
          patch = needsMediation(a, b, Number(row.maxScore), scope.settings.threshold)
            ? { status: 'needs_mediation' }
            : await resolveRemark(tx, row, scope, averageMark(a, b), actor.id, now);
        }
        const updated = await repo.updateAppeal(tx, row.id, patch);
        const [view] = await appealsAsSeen(tx, scope, [updated]);
        if (!view) throw notFound('appeal');
        return view;
      });
    },

    async mediateAppeal(
      actor: Actor,
      ids: PhaseIds,
      reviewId: string,
      input: MarkInput,
    ): Promise<ContestationEntry> {
      const scope = await requireScope(actor, ids);
      await requireAppealView(db, scope, reviewId);
      return db.transaction(async (tx) => {
        const row = await repo.lockAppeal(tx, scope.phase.id, reviewId);
        if (!row) throw notFound('appeal');
        if (row.kind !== 'remark' || (await repo.findMediator(tx, row.itemId)) !== actor.id) {
          throw forbidden();
        }
        // Whoever marked the answer before (either round) does not decide its appeal.
        const marked = [row.id, ...(row.entryId ? [row.entryId] : [])];
        const earlier = await repo.findMarks(tx, marked);
        if ([...earlier.values()].flat().some((m) => m.reviewerId === actor.id)) throw forbidden();
        if (input.version !== undefined && input.version !== row.version) throw stale();
        if (row.status !== 'needs_mediation') throw closed();
        const mark = checkMark(
          input,
          Number(row.maxScore),
          scope.settings.markStep,
          await rubricCriteria(tx, row.itemId),
        );
        const now = clock.now();
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'appeal.mediated',
          entityType: 'review_appeal',
          entityId: row.id,
          after: { score: mark.score, criteria: mark.criteria },
          reason: mark.note,
        });
        const resolved = await resolveRemark(tx, row, scope, mark.score, actor.id, now);
        const updated = await repo.updateAppeal(tx, row.id, {
          ...resolved,
          mediatorId: actor.id,
          mediatorScore: mark.score,
          mediatorNote: mark.note,
        });
        const [view] = await appealsAsSeen(tx, scope, [updated]);
        if (!view) throw notFound('appeal');
        return view;
      });
    },

    /** The exam's admins close a committee appeal, the score kept. */
    async decideAppeal(
      actor: Actor,
      ids: PhaseIds,
      reviewId: string,
      input: AppealDecisionInput,
    ): Promise<ContestationEntry> {
      const scope = await requireScope(actor, ids);
      await requireAppealView(db, scope, reviewId);
      if (!scope.viewer.manage) throw forbidden();
      return db.transaction(async (tx) => {
        const row = await repo.lockAppeal(tx, scope.phase.id, reviewId);
        if (!row) throw notFound('appeal');
        if (row.kind !== 'committee') throw forbidden();
        if (input.version !== undefined && input.version !== row.version) throw stale();
        if (row.status !== 'pending') throw closed();
        const now = clock.now();
        const original = row.originalScore === null ? null : Number(row.originalScore);
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'appeal.decided',
          entityType: 'review_appeal',
          entityId: row.id,
          before: { score: original },
          after: { score: original, outcome: 'kept' },
          reason: input.note,
        });
        const updated = await repo.updateAppeal(tx, row.id, {
          status: 'resolved',
          outcome: 'kept',
          finalScore: original,
          resultScore: original,
          decisionNote: input.note,
          resolvedAt: now,
        });
        const [view] = await appealsAsSeen(tx, scope, [updated]);
        if (!view) throw notFound('appeal');
        return view;
      });
    },

    async appealHistory(actor: Actor, ids: PhaseIds, reviewId: string): Promise<HistoryEvent[]> {
      const scope = await requireScope(actor, ids);
      const { row, view } = await requireAppealView(db, scope, reviewId);
      const marks = (await repo.findMarks(db, [row.id])).get(row.id) ?? [];
      const mine = marks.find((m) => m.reviewerId === actor.id);
      const events = asAudit(await repo.findHistory(db, 'review_appeal', row.id));
      return historyView(
        events,
        view.myRole,
        seesAll(view.myRole, marks, actor.id),
        mine?.slot ?? null,
        scope.viewer,
      );
    },

    async appealAnswerZip(actor: Actor, ids: PhaseIds, reviewId: string) {
      const scope = await requireScope(actor, ids);
      const { row } = await requireAppealView(db, scope, reviewId);
      if (!row.answerId) throw notFound('file');
      return answerZip(row.answerId);
    },

    async appealFile(actor: Actor, ids: PhaseIds, reviewId: string, fileId: string) {
      const scope = await requireScope(actor, ids);
      const { row } = await requireAppealView(db, scope, reviewId);
      return markingFile(row.itemId, row.answerId, fileId);
    },

    // ------------------------------------------------------------------------------------
    // The student

    async studentResult(actor: Actor, testId: string): Promise<StudentResult> {
      const found = await repo.findTestWithPhase(db, testId);
      if (!found || !(await repo.hasTestResult(db, testId, actor.id))) throw notFound('test');
      const now = clock.now();
      const results = await findTestResults(db, actor.id, [testId], now);
      const result = results.get(testId);
      const items = await studentItems(db, found, actor.id, now);
      return {
        testId,
        testName: found.test.name,
        score: result?.score ?? null,
        scoreState: result?.scoreState ?? null,
        appealStartDate: found.phase.appealStartDate?.toISOString() ?? null,
        appealEndDate: found.phase.appealEndDate?.toISOString() ?? null,
        appealOpen: windowOpen(found.phase, now),
        items,
      };
    },

    /** The student contests one item's final score, once, inside the phase's window. */
    async fileAppeal(
      actor: Actor,
      testId: string,
      itemId: string,
      input: AppealInput,
    ): Promise<StudentReviewItem> {
      const found = await repo.findTestWithPhase(db, testId);
      if (!found || !(await repo.hasTestResult(db, testId, actor.id))) throw notFound('test');
      const item = (await repo.findTestItems(db, testId)).find((i) => i.itemId === itemId);
      if (!item) throw notFound('item');
      return db.transaction(async (tx) => {
        const now = clock.now();
        if (!windowOpen(found.phase, now)) throw notAllowed('window');
        const answer = await repo.findAnswer(tx, testId, actor.id, itemId);
        const existing = (await repo.findStudentAppeals(tx, testId, actor.id)).find(
          (a) => a.itemId === itemId,
        );
        if (existing) throw notAllowed('already_appealed');
        if (answer?.scoreState !== 'decided' || answer.score === null) {
          throw notAllowed('no_final_score');
        }
        const entry = await repo.findEntryOfAnswer(tx, answer.id);
        const id = uuidv7(now.getTime());
        const inserted = await repo.insertAppeal(tx, {
          id,
          phaseId: found.phase.id,
          testId,
          itemId,
          studentId: actor.id,
          answerId: answer.id,
          entryId: entry?.id ?? null,
          itemIndexInTest: item.position - 1,
          code: entry?.code ?? anonymousCode(),
          kind: entry ? 'remark' : 'committee',
          reason: input.reason,
          filedAt: now,
          maxScore: Number(item.points),
          originalScore: Number(answer.score),
        });
        if (!inserted) throw notAllowed('already_appealed');
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'appeal.filed',
          entityType: 'review_appeal',
          entityId: id,
          before: { score: Number(answer.score) },
          reason: input.reason,
        });
        if (entry) await assignAppeal(tx, inserted, entry, actor.id, now);
        const [view] = await studentItems(tx, found, actor.id, now, itemId);
        if (!view) throw notFound('item');
        return view;
      });
    },

    // ------------------------------------------------------------------------------------
    // Staff

    async getRubric(actor: Actor, ids: PhaseIds, itemId: string): Promise<Rubric> {
      const scope = await requireScope(actor, ids);
      if ((await repo.findPhaseItem(db, scope.phase.id, itemId)).length === 0) {
        throw notFound('item');
      }
      return rubricOf(db, itemId);
    },

    async putRubric(
      actor: Actor,
      ids: PhaseIds,
      itemId: string,
      input: RubricInput,
    ): Promise<Rubric> {
      const scope = await requireScope(actor, ids);
      if (!scope.viewer.whole) throw forbidden();
      const drawn = await repo.findPhaseItem(db, scope.phase.id, itemId);
      if (drawn.length === 0) throw notFound('item');
      const max = Math.max(...drawn.map((d) => Number(d.points)));
      const seen = new Set<string>();
      const criteria = input.criteria.map((c) => {
        const id = c.id ?? uuidv7().slice(-12);
        if (seen.has(id)) throw fieldError({ criteria: ['invalid'] });
        seen.add(id);
        return { id, label: c.label, points: Math.round(c.points * 100) / 100 };
      });
      const sum = criteria.reduce((s, c) => s + Math.round(c.points * 100), 0);
      if (sum > Math.round(max * 100)) throw fieldError({ criteria: ['score_sum'] });
      return db.transaction(async (tx) => {
        const before = await repo.findRubric(tx, itemId);
        await repo.saveRubric(tx, itemId, criteria, actor.id);
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'review.rubric',
          entityType: 'question',
          entityId: itemId,
          before: { criteria: before?.criteria ?? [] },
          after: { criteria },
        });
        return rubricOf(tx, itemId);
      });
    },

    async progress(actor: Actor, ids: PhaseIds): Promise<ReviewProgress> {
      const scope = await requireScope(actor, ids);
      if (!scope.viewer.whole) throw forbidden();
      const [questionRows, reviewerRows] = await Promise.all([
        repo.progressOfQuestions(db, scope.phase.id),
        repo.progressOfReviewers(db, scope.phase.id),
      ]);
      const people = await repo.findPeople(
        db,
        reviewerRows.map((r) => r.teacher_id),
      );
      return {
        reviewStarted: scope.phase.reviewStarted,
        questions: questionRows.map((q) => ({
          itemId: q.item_id,
          testId: q.test_id,
          itemIndexInTest: Number(q.idx),
          total: Number(q.total),
          marked: Number(q.marked),
          needsMediation: Number(q.needs_mediation),
          final: Number(q.final),
          appealsPending: Number(q.appeals_pending),
          appealsNeedMediation: Number(q.appeals_mediation),
          appealsResolved: Number(q.appeals_resolved),
        })),
        reviewers: reviewerRows
          .map((r) => {
            const p = people.get(r.teacher_id);
            return {
              teacherId: r.teacher_id,
              givenName: p?.givenName ?? null,
              familyName: p?.familyName ?? null,
              email: p?.email ?? '',
              assigned: Number(r.assigned),
              marked: Number(r.marked),
              open: Number(r.assigned) - Number(r.marked),
              mediationsOpen: Number(r.mediations_open),
            };
          })
          .sort(
            (a, b) =>
              (a.familyName ?? '').localeCompare(b.familyName ?? '') ||
              a.teacherId.localeCompare(b.teacherId),
          ),
      };
    },

    /** Mails reviewers who still have marks or mediations to give. */
    async remind(actor: Actor, ids: PhaseIds, input: ReminderInput): Promise<ReminderResult> {
      const scope = await requireScope(actor, ids);
      if (!scope.viewer.whole) throw forbidden();
      const rows = await repo.progressOfReviewers(db, scope.phase.id);
      const wanted = input.teacherIds ? new Set(input.teacherIds) : undefined;
      const due = rows
        .map((r) => ({
          teacherId: r.teacher_id,
          open: Number(r.assigned) - Number(r.marked),
          mediationsOpen: Number(r.mediations_open),
        }))
        .filter(
          (r) => (r.open > 0 || r.mediationsOpen > 0) && (!wanted || wanted.has(r.teacherId)),
        );
      const people = await repo.findPeople(
        db,
        due.map((d) => d.teacherId),
      );
      const sent: ReminderResult['sent'] = [];
      await db.transaction(async (tx) => {
        for (const d of due) {
          const p = people.get(d.teacherId);
          if (!p || p.deletedAt) continue;
          await outbox.enqueue(tx, {
            template: 'review-reminder',
            to: p.email,
            userId: p.id,
            locale: p.uiLocale ?? p.locale,
            params: {
              phase: scope.phase.name,
              open: String(d.open),
              mediations: String(d.mediationsOpen),
              link: `${origin}/examene/${scope.exam.id}/editii/${scope.edition.id}/phases/${scope.phase.id}/corectare`,
            },
          });
          sent.push(d);
        }
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'review.reminded',
          entityType: 'phase',
          entityId: scope.phase.id,
          after: { teacherIds: sent.map((s) => s.teacherId) },
        });
      });
      return { sent };
    },

    /** A reviewer who cannot mark hands their open marks to other teachers of the question. */
    async reassign(actor: Actor, ids: PhaseIds, input: ReassignInput): Promise<ReassignResult> {
      const scope = await requireScope(actor, ids);
      if (!scope.viewer.whole) throw forbidden();
      return db.transaction(async (tx) => {
        const open = await repo.findOpenMarks(tx, scope.phase.id, input.teacherId, input.itemId);
        const itemIds = [...new Set(open.map((o) => o.item_id))];
        const teachers = await questions.questionTeachersOf(itemIds, tx);
        if (input.toTeacherId) {
          const to = input.toTeacherId;
          if (itemIds.some((i) => !teachers.get(i)?.gradingTeachers.includes(to))) {
            throw fieldError({ toTeacherId: ['invalid'] });
          }
        }
        const pools = [...teachers.values()].flatMap((t) => t.gradingTeachers);
        const [codes, teams] = await Promise.all([
          repo.findTeacherCodes(tx, pools),
          repo.findStudentTeams(
            tx,
            open.map((o) => o.student_id),
          ),
        ]);
        const loads = new Map<string, Map<string, number>>();
        for (const itemId of itemIds) loads.set(itemId, await repo.loadOfQuestion(tx, itemId));
        let moved = 0;
        for (const o of open) {
          const parents = [o.parent_id, ...(o.entry_id ? [o.entry_id] : [])];
          const taken = new Set(
            [...(await repo.findMarks(tx, parents)).values()].flat().map((m) => m.reviewerId),
          );
          const t = teachers.get(o.item_id);
          const pool = input.toTeacherId ? [input.toTeacherId] : (t?.gradingTeachers ?? []);
          const avoid = conflictsOf(teams.get(o.student_id), codes, pool);
          if (t?.mediatorTeacher) avoid.add(t.mediatorTeacher);
          const [to] = pickReviewers(
            pool,
            loads.get(o.item_id) ?? new Map(),
            new Set([...taken, input.teacherId]),
            avoid,
            1,
          );
          if (!to) continue;
          await repo.moveMark(tx, o.id, to);
          const slot = (await repo.findMarks(tx, [o.parent_id]))
            .get(o.parent_id)
            ?.find((m) => m.id === o.id)?.slot;
          await appendAudit(tx, {
            actorId: actor.id,
            action: o.round === 'review' ? 'review.reassigned' : 'appeal.reassigned',
            entityType: o.round === 'review' ? 'review_entry' : 'review_appeal',
            entityId: o.parent_id,
            before: { slot, reviewerId: input.teacherId },
            after: { slot, reviewerId: to },
            reason: input.reason ?? null,
          });
          moved += 1;
        }
        return { moved, unmoved: open.length - moved };
      });
    },

    async previewKeyFix(
      actor: Actor,
      ids: PhaseIds,
      itemId: string,
      input: KeyFixInput,
    ): Promise<KeyFixPreview> {
      const scope = await requireScope(actor, ids);
      if (!scope.viewer.manage) throw forbidden();
      const question = await keyFixTarget(scope, itemId, input);
      return keyFixChanges(db, scope, question, input);
    },

    /** Corrects the key and rescores every attempt of the phase's tests drawing the item. */
    async applyKeyFix(
      actor: Actor,
      ids: PhaseIds,
      itemId: string,
      input: KeyFixInput,
    ): Promise<KeyFixResult> {
      const scope = await requireScope(actor, ids);
      if (!scope.viewer.manage) throw forbidden();
      const question = await keyFixTarget(scope, itemId, input);
      return db.transaction(async (tx) => {
        const preview = await keyFixChanges(tx, scope, question, input);
        const now = clock.now();
        await questions.setAnswerKey(
          tx,
          actor.id,
          itemId,
          input.itemCorrectAnswers,
          input.reason ?? null,
        );
        let changedItems = 0;
        let students = 0;
        const drawn = await repo.findPhaseItem(tx, scope.phase.id, itemId);
        for (const d of drawn) {
          const r = await rescoreTest(tx, d.testId, now);
          changedItems += r.changedItems;
          students += r.students;
        }
        // Committee appeals on the item end with the corrected key's score.
        const appeals = await repo.lockCommitteeAppeals(tx, itemId);
        for (const a of appeals) {
          const answer = a.answerId ? await repo.findAnswerById(tx, a.answerId) : undefined;
          const score =
            answer?.score === null || answer?.score === undefined ? 0 : Number(answer.score);
          const original = Number(a.originalScore ?? 0);
          const outcome = score === original ? 'kept' : 'changed';
          await repo.updateAppeal(tx, a.id, {
            status: 'resolved',
            outcome,
            resultScore: score,
            finalScore: score,
            decisionNote: input.reason ?? null,
            resolvedAt: now,
          });
          await appendAudit(tx, {
            actorId: actor.id,
            action: 'appeal.key_fixed',
            entityType: 'review_appeal',
            entityId: a.id,
            before: { score: original },
            after: { score, outcome },
            reason: input.reason ?? null,
          });
        }
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'review.key_fixed',
          entityType: 'phase',
          entityId: scope.phase.id,
          before: { itemId, itemCorrectAnswers: question.itemCorrectAnswers },
          after: {
            itemId,
            itemCorrectAnswers: input.itemCorrectAnswers,
            changes: preview.changes.map((c) => ({
              testId: c.testId,
              studentId: c.studentId,
              before: c.oldScore,
              after: c.newScore,
            })),
          },
          reason: input.reason ?? null,
        });
        const names = new Map<string, string>();
        for (const c of preview.changes) {
          if (!names.has(c.testId)) names.set(c.testId, await testName(tx, c.testId));
          await mailStudent(tx, c.studentId, c.testId, names.get(c.testId) ?? '');
        }
        return { ...preview, changedItems, students, resolvedAppeals: appeals.length };
      });
    },
  };

  // --------------------------------------------------------------------------------------
  // Helpers that read

  async function rubricOf(tx: Db, itemId: string): Promise<Rubric> {
    const row = await repo.findRubric(tx, itemId);
    return {
      itemId,
      criteria: row?.criteria ?? [],
      updatedAt: row?.updatedAt.toISOString() ?? null,
    };
  }

  /** The question, the answer's pages (named by place only) or text, and the rubric. */
  async function markingMaterial(
    _scope: Scope,
    itemId: string,
    answerId: string | null,
    maxScore: number,
  ) {
    const question = await repo.findQuestion(db, itemId);
    if (!question) throw notFound('question');
    const answer = answerId ? await repo.findAnswerById(db, answerId) : undefined;
    const fileRows = new Map(
      (await repo.findFiles(db, answer?.fileIds ?? [])).map((f) => [f.id, f]),
    );
    const pages = (answer?.fileIds ?? []).flatMap((id, i) => {
      const f = fileRows.get(id);
      return f
        ? [{ _id: f.id, name: pageName(i, f.mime), mime: f.mime, size: Number(f.size) }]
        : [];
    });
    const submitted = answer?.submittedAnswer;
    return {
      question: {
        itemId,
        itemQ: question.itemQ,
        itemType: question.itemType,
        itemAnswers: question.itemAnswers,
        itemCorrectAnswers: question.itemCorrectAnswers ?? null,
        imageFileId: question.imageFileId,
        maxScore,
      },
      answer: {
        pages,
        text: question.itemType === 'open' && typeof submitted === 'string' ? submitted : null,
      },
      rubric: await rubricOf(db, itemId),
    };
  }

  async function answerZip(answerId: string) {
    const answer = await repo.findAnswerById(db, answerId);
    const ids = answer?.fileIds ?? [];
    if (ids.length === 0) throw notFound('file');
    const rows = new Map((await repo.findFiles(db, ids)).map((f) => [f.id, f]));
    const entries = [];
    for (const [i, id] of ids.entries()) {
      const f = rows.get(id);
      if (!f) continue;
      entries.push({
        name: pageName(i, f.mime),
        data: await storage.get(f.storageKey),
        modifiedAt: f.createdAt,
      });
    }
    return { name: `response_${answerId}.zip`, mime: 'application/zip', data: buildZip(entries) };
  }

  /** A page of the answer, or an image of the question's statement. */
  async function markingFile(itemId: string, answerId: string | null, fileId: string) {
    const answer = answerId ? await repo.findAnswerById(db, answerId) : undefined;
    const question = await repo.findQuestion(db, itemId);
    const pageIndex = answer?.fileIds.indexOf(fileId) ?? -1;
    const inStatement =
      question !== undefined &&
      (question.imageFileId === fileId ||
        `${question.itemQ}\n${question.itemAnswers.join('\n')}`.includes(
          `${STATEMENT_FILE_PREFIX}${fileId}`,
        ));
    if (pageIndex < 0 && !inStatement) throw notFound('file');
    const [f] = await repo.findFiles(db, [fileId]);
    if (!f) throw notFound('file');
    return {
      name: pageIndex >= 0 ? pageName(pageIndex, f.mime) : `image${extensionOf(f.mime)}`,
      mime: f.mime,
      data: await storage.get(f.storageKey),
    };
  }

  function windowOpen(
    phase: { appealStartDate: Date | null; appealEndDate: Date | null },
    now: Date,
  ) {
    return (
      phase.appealStartDate !== null &&
      phase.appealEndDate !== null &&
      phase.appealStartDate.getTime() <= now.getTime() &&
      now.getTime() < phase.appealEndDate.getTime()
    );
  }

  async function studentItems(
    tx: Db,
    found: NonNullable<Awaited<ReturnType<typeof repo.findTestWithPhase>>>,
    studentId: string,
    now: Date,
    only?: string,
  ): Promise<StudentReviewItem[]> {
    const items = await repo.findTestItems(tx, found.test.id);
    const scores = await findItemScores(tx, { testId: found.test.id, studentId }, found.phase, now);
    const appeals = new Map(
      (await repo.findStudentAppeals(tx, found.test.id, studentId)).map((a) => [a.itemId, a]),
    );
    const open = windowOpen(found.phase, now);
    return items
      .filter((i) => only === undefined || i.itemId === only)
      .map((i) => {
        const s = scores.get(i.itemId);
        const decided = s !== undefined && s.score !== null && s.scoreState !== 'awaiting_marking';
        const appeal = appeals.get(i.itemId);
        return {
          itemId: i.itemId,
          itemIndexInTest: i.position - 1,
          maxScore: Number(i.points),
          finalScore: decided ? s.score : null,
          scoreState: s?.scoreState ?? null,
          appealStatus: !appeal ? 'none' : appeal.status === 'resolved' ? 'resolved' : 'pending',
          appealOutcome: appeal?.outcome ?? null,
          canChallenge: open && decided && !appeal,
        };
      });
  }

  /** Gives an appeal two teachers of the question who did not mark the answer before. */
  async function assignAppeal(
    tx: Db,
    appeal: repo.AppealRow,
    entry: repo.EntryRow,
    actorId: string,
    at: Date,
  ) {
    const teachers = (await questions.questionTeachersOf([appeal.itemId], tx)).get(appeal.itemId);
    const pool = teachers?.gradingTeachers ?? [];
    const before = ((await repo.findMarks(tx, [entry.id])).get(entry.id) ?? []).map(
      (m) => m.reviewerId,
    );
    const exclude = new Set([...before, ...(entry.mediatorId ? [entry.mediatorId] : [])]);
    const [codes, teams] = await Promise.all([
      repo.findTeacherCodes(tx, pool),
      repo.findStudentTeams(tx, [appeal.studentId]),
    ]);
    const avoid = conflictsOf(teams.get(appeal.studentId), codes, pool);
    if (teachers?.mediatorTeacher) avoid.add(teachers.mediatorTeacher);
    const picked = pickReviewers(
      pool,
      await repo.loadOfQuestion(tx, appeal.itemId),
      exclude,
      avoid,
      REVIEWERS_PER_ANSWER,
    );
    const marks = picked.map((reviewerId, i) => ({
      id: uuidv7(at.getTime()),
      parentId: appeal.id,
      round: 'appeal' as const,
      slot: i + 1,
      reviewerId,
    }));
    await repo.insertMarks(tx, marks);
    for (const m of marks) {
      await appendAudit(tx, {
        actorId,
        action: 'appeal.assigned',
        entityType: 'review_appeal',
        entityId: appeal.id,
        after: { slot: m.slot, reviewerId: m.reviewerId },
      });
    }
  }

  /** The question a key fix targets: drawn into the phase, scored from its key; key checked. */
  async function keyFixTarget(scope: Scope, itemId: string, input: KeyFixInput) {
    if ((await repo.findPhaseItem(db, scope.phase.id, itemId)).length === 0) {
      throw notFound('item');
    }
    const question = await repo.findQuestion(db, itemId);
    if (!question) throw notFound('item');
    const key = input.itemCorrectAnswers;
    const options = question.itemAnswers.length;
    const valid =
      question.itemType === 'numeric'
        ? typeof key === 'string' &&
          key.trim() !== '' &&
          scoreAnswer({ itemType: 'numeric', itemCorrectAnswers: key, score: 1 }, key) === 1
        : question.itemType === 'single'
          ? Array.isArray(key) && key.length === 1 && key.every((k) => k < options)
          : question.itemType === 'multiple'
            ? Array.isArray(key) &&
              key.length > 0 &&
              new Set(key).size === key.length &&
              key.every((k) => k < options)
            : false;
    if (!valid) throw fieldError({ itemCorrectAnswers: ['invalid'] });
    return question;
  }

  async function keyFixChanges(
    tx: Db,
    scope: Scope,
    question: NonNullable<Awaited<ReturnType<typeof repo.findQuestion>>>,
    input: KeyFixInput,
  ): Promise<KeyFixPreview> {
    const rows = await repo.findKeyScoredAnswers(tx, scope.phase.id, question.id);
    const changes: KeyFixPreview['changes'] = [];
    for (const r of rows) {
      const submitted = r.answer_text === null ? null : (JSON.parse(r.answer_text) as unknown);
      const next =
        scoreAnswer(
          {
            itemType: question.itemType,
            itemCorrectAnswers: input.itemCorrectAnswers,
            score: Number(r.points),
          },
          submitted,
        ) ?? 0;
      const old = r.score === null ? null : Number(r.score);
      if (old === next) continue;
      changes.push({
        testId: r.test_id,
        studentId: r.student_id,
        givenName: r.given_name,
        familyName: r.family_name,
        oldScore: old,
        newScore: next,
      });
    }
    const pending = await repo.countCommitteeAppeals(tx, question.id);
    return { itemId: question.id, changes, pendingAppeals: pending };
  }
}

/** `page-01.png`: an answer's page named by its place only. */
function pageName(index: number, mime: string) {
  return `page-${String(index + 1).padStart(2, '0')}${extensionOf(mime)}`;
}

function extensionOf(mime: string) {
  switch (mime) {
    case 'application/pdf':
      return '.pdf';
    case 'image/png':
      return '.png';
    case 'image/jpeg':
      return '.jpg';
    default:
      return '';
  }
}

export type ReviewsService = ReturnType<typeof reviewsService>;
