import type {
  Phase,
  PhaseCreateInput,
  PhaseFinishInput,
  PhaseListItem,
  PhasePatchInput,
} from '../../../shared/schemas/exams.js';
import type {
  AffectedDiploma,
  PhaseClosed,
  StandingChange,
} from '../../../shared/schemas/phase-reopen.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import { parseFilter } from '../../lib/filter/index.js';
import { uuidv7 } from '../../lib/ids.js';
import { notifyResultsPublished } from '../notifications/index.js';
import { lockEdition } from './editions.repo.js';
import { requireEdition, requirePhase } from './exams.access.js';
import { pickFields, toPhaseDto } from './exams.dto.js';
import { canManageExam } from './exams.policy.js';
import * as repo from './phases.repo.js';

export type PhasesDeps = {
  db: Db;
  clock: Clock;
  /**
   * Ends every attempt of the phase's tests still running, in the closing transaction (the
   * player's; given by the composition root). Returns how many it ended.
   */
  endRunningAttempts: (tx: Db, phaseId: string, at: Date) => Promise<number>;
  /**
   * Checks that the phase can be marked and hands out the marking work, in the transaction
   * that starts its review (the test-review module's; given by the composition root). Throws
   * INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS or TESTS_STILL_RUNNING; answers what it assigned.
   */
  beginReview: (tx: Db, phase: ReviewedPhase, actorId: string, at: Date) => Promise<unknown>;
  /**
   * In the closing transaction, refuses (RESULTS_INCOMPLETE, details: what is open) while a
   * score of the phase is not final, unless the caller accepted exactly the open entries and
   * appeals, which it then settles (the test-review module's; given by the composition root).
   * Answers the ids it settled.
   */
  settleOpenScores: (
    tx: Db,
    phaseId: string,
    accepted: PhaseFinishInput['acceptOpen'],
    actorId: string,
    at: Date,
  ) => Promise<{ reviewIds: string[]; appealIds: string[] }>;
  /**
   * In the closing transaction, once every score is final: keeps each student's standing and,
   * when the phase closes again after a reopening, applies its rules again and answers (and
   * tells) the students whose standing changed (the rankings module's).
   */
  settleStandings: (
    tx: Db,
    phase: { id: string; name: string },
    actorId: string,
    at: Date,
  ) => Promise<StandingChange[]>;
  /**
   * The diplomas of the phase already printed for these students, flagged out of date at `at`
   * (the diplomas module's).
   */
  findChangedDiplomas: (
    tx: Db,
    phaseId: string,
    studentIds: readonly string[],
    at: Date,
  ) => Promise<AffectedDiploma[]>;
};

/** What the start of review tells the test-review module about the phase. */
export type ReviewedPhase = { id: string; type: 'online' | 'hybrid' };

/** Both date fields are marked so the form shows the problem on each (SPEC.md §5). */
const DATE_FIELDS = { startDate: ['invalid_date'], endDate: ['invalid_date'] };

/**
 * The dates of a phase must make sense within its edition: start before end, no overlap with
 * another phase, and never before a closed phase (closed phases have already advanced their
 * students to the one after them, so nothing may be placed before them).
 */
export function checkPhaseDates(
  others: readonly repo.PhaseRow[],
  start: Date,
  end: Date,
  selfId?: string,
): void {
  if (!(start < end)) {
    throw new AppError('INVALID_PHASE_DATES', 'The start must be before the end', DATE_FIELDS);
  }
  const rest = others.filter((p) => p.id !== selfId);
  if (rest.some((p) => p.startDate < end && start < p.endDate)) {
    throw new AppError('OVERLAPPING_PHASE_DATES', 'Overlaps another phase', DATE_FIELDS);
  }
  if (rest.some((p) => p.state === 'closed' && p.startDate > start)) {
    throw new AppError('INVALID_PHASE_DATES', 'Placed before a closed phase', DATE_FIELDS);
  }
}

const APPEAL_FIELDS = { appealStartDate: ['invalid_date'], appealEndDate: ['invalid_date'] };

/**
 * The appeal window after a change: both ends set with start before end, or neither (a
 * phase without appeals). Undefined keeps what is stored.
 */
export function appealWindow(
  input: { appealStartDate?: string | null; appealEndDate?: string | null },
  stored: { appealStartDate: Date | null; appealEndDate: Date | null },
): { appealStartDate: Date | null; appealEndDate: Date | null } {
  const pick = (value: string | null | undefined, kept: Date | null) =>
    value === undefined ? kept : value === null ? null : new Date(value);
  const start = pick(input.appealStartDate, stored.appealStartDate);
  const end = pick(input.appealEndDate, stored.appealEndDate);
  if ((start === null) !== (end === null) || (start && end && !(start < end))) {
    throw new AppError('INVALID_PHASE_DATES', 'The appeal window needs a start before its end', {
      ...APPEAL_FIELDS,
    });
  }
  return { appealStartDate: start, appealEndDate: end };
}

/** What a closed phase still lets change: nothing but its name. */
const EDITABLE_WHEN_CLOSED = new Set(['name']);

export function phasesService({
  db,
  clock,
  endRunningAttempts,
  beginReview,
  settleOpenScores,
  settleStandings,
  findChangedDiplomas,
}: PhasesDeps) {
  /** Shared by PATCH and POST …/phases/{phaseId}. */
  async function updatePhase(
    actor: Actor,
    examId: string,
    editionId: string,
    phaseId: string,
    patch: PhasePatchInput,
  ): Promise<Phase> {
    const { access } = await requirePhase(db, actor, examId, editionId, phaseId);
    if (!canManageExam(access)) throw forbidden();
    return db.transaction(async (tx) => {
      if (!(await lockEdition(tx, editionId, 'update'))) throw notFound('edition');
      const row = await repo.lockPhase(tx, phaseId, 'update');
      if (!row) throw notFound('phase');
      const keys = Object.keys(patch);
      if (row.state === 'closed' && keys.some((k) => !EDITABLE_WHEN_CLOSED.has(k))) {
        throw new AppError('PHASE_CLOSED', 'A closed phase cannot change');
      }
      const { startDate, endDate, appealStartDate, appealEndDate, ...rest } = patch;
      const appeals = appealWindow({ appealStartDate, appealEndDate }, row);
      const start = startDate === undefined ? row.startDate : new Date(startDate);
      const end = endDate === undefined ? row.endDate : new Date(endDate);
      const datesChanged =
        start.getTime() !== row.startDate.getTime() || end.getTime() !== row.endDate.getTime();
      if (datesChanged)
        checkPhaseDates(await repo.findEditionPhases(tx, editionId), start, end, row.id);
      const updated =
        keys.length > 0
          ? await repo.updatePhase(tx, phaseId, {
              ...rest,
              ...appeals,
              startDate: start,
              endDate: end,
            })
          : row;
      if (!updated) throw notFound('phase');
      // Moving a phase may change which one is first.
      if (datesChanged) await repo.syncFirstPhase(tx, editionId);
      if (keys.length > 0) {
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'phase.update',
          entityType: 'phase',
          entityId: phaseId,
          before: Object.fromEntries(keys.map((k) => [k, row[k as keyof typeof row]])),
          after: patch,
        });
      }
      return toPhaseDto(updated, examId);
    });
  }

  return {
    /** The edition's phases in order of their start dates. */
    async listPhases(
      actor: Actor,
      examId: string,
      editionId: string,
      rawFilter: string | undefined,
    ): Promise<PhaseListItem[]> {
      await requireEdition(db, actor, examId, editionId);
      const filter = parseFilter(rawFilter, repo.phasesResource);
      const rows = await repo.listPhases(db, editionId, filter);
      return rows.map((row) => pickFields(toPhaseDto(row, examId), filter.fields, '_id'));
    },

    /** One phase, or 404 outside the actor's scope. */
    async getPhase(actor: Actor, examId: string, editionId: string, phaseId: string) {
      const { phase } = await requirePhase(db, actor, examId, editionId, phaseId);
      return toPhaseDto(phase, examId);
    },

    /** A phase found by exam and id alone (the phase page's route lacks the edition). */
    async getPhaseOfExam(actor: Actor, examId: string, phaseId: string): Promise<Phase> {
      const phase = await repo.findPhaseById(db, phaseId);
      if (!phase) throw notFound('phase');
      // Scope, and that the phase's edition belongs to this exam.
      await requireEdition(db, actor, examId, phase.editionId);
      return toPhaseDto(phase, examId);
    },

    /**
     * Exam managers add a phase with sensible dates (INVALID_PHASE_DATES,
     * OVERLAPPING_PHASE_DATES); if it is the edition's first, every enrolled student joins it.
     */
    async createPhase(
      actor: Actor,
      examId: string,
      editionId: string,
      input: PhaseCreateInput,
    ): Promise<Phase> {
      const { access } = await requireEdition(db, actor, examId, editionId);
      if (!canManageExam(access)) throw forbidden();
      const start = new Date(input.startDate);
      const end = new Date(input.endDate);
      const appeals = appealWindow(input, { appealStartDate: null, appealEndDate: null });
      return db.transaction(async (tx) => {
        if (!(await lockEdition(tx, editionId, 'update'))) throw notFound('edition');
        checkPhaseDates(await repo.findEditionPhases(tx, editionId), start, end);
        const row = await repo.insertPhase(tx, {
          id: uuidv7(),
          editionId,
          name: input.name,
          type: input.type,
          startDate: start,
          endDate: end,
          registrationOpen: input.registrationOpen ?? false,
          ...appeals,
          ...(input.mediationThreshold === undefined
            ? {}
            : { mediationThreshold: input.mediationThreshold }),
          ...(input.markStep === undefined ? {} : { markStep: input.markStep }),
          ...(input.appealMinPoints === undefined
            ? {}
            : { appealMinPoints: input.appealMinPoints }),
        });
        await repo.syncFirstPhase(tx, editionId);
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'phase.create',
          entityType: 'phase',
          entityId: row.id,
          after: { editionId, name: row.name, type: row.type, startDate: start, endDate: end },
        });
        return toPhaseDto(row, examId);
      });
    },

    /** Exam managers change what was sent; a closed phase keeps all but its name. Audited. */
    updatePhase,

    /**
     * Closes the phase and registers its admitted students in the next phase (by start date),
     * once: a second call returns the same result. No next phase: EDITION_PHASE_NOT_CREATED
     * and nothing changes, unless the caller says it is the last phase (`lastPhase`) and it
     * admitted nobody; closing it then makes its results and prizes final. Closing again
     * after a reopening applies the phase's rules again and answers who changes and which of
     * their diplomas were already printed.
     */
    async finishPhase(
      actor: Actor,
      examId: string,
      editionId: string,
      phaseId: string,
      input: PhaseFinishInput = {},
    ): Promise<PhaseClosed> {
      const { access } = await requirePhase(db, actor, examId, editionId, phaseId);
      if (!canManageExam(access)) throw forbidden();
      return db.transaction(async (tx) => {
        // Share on the edition: no phase is created or moved while we pick the next one.
        if (!(await lockEdition(tx, editionId, 'share'))) throw notFound('edition');
        const row = await repo.lockPhase(tx, phaseId, 'update');
        if (!row) throw notFound('phase');
        if (row.state === 'closed') {
          return {
            ...toPhaseDto(row, examId),
            advancedCount: await repo.countAdmitted(tx, phaseId),
            changes: [],
            diplomas: [],
          };
        }
        const ordered = await repo.findEditionPhases(tx, editionId);
        const next = ordered[ordered.findIndex((p) => p.id === phaseId) + 1];
        if (!next && !(input.lastPhase && (await repo.countAdmitted(tx, phaseId)) === 0)) {
          throw new AppError(
            'EDITION_PHASE_NOT_CREATED',
            'Create the next phase before closing this one',
          );
        }
        const now = clock.now();
        // Nothing stays open in a closed phase: attempts still running end now and are
        // scored before the admitted students are counted and moved on.
        const ended = await endRunningAttempts(tx, phaseId, now);
        // A closed phase is final: every score is, or the organiser accepted by name what is
        // not. Refused otherwise, and the attempts ended above are rolled back with it.
        const accepted = await settleOpenScores(tx, phaseId, input.acceptOpen, actor.id, now);
        // Before the admitted move on: closing again re-decides them from the corrected totals.
        const changes = await settleStandings(tx, row, actor.id, now);
        const diplomas = await findChangedDiplomas(
          tx,
          phaseId,
          changes.map((c) => c.studentId),
          now,
        );
        const closed = await repo.updatePhase(tx, phaseId, {
          state: 'closed',
          closedAt: now,
          registrationOpen: false,
        });
        if (!closed) throw notFound('phase');
        const added = next ? await repo.advanceAdmitted(tx, phaseId, next.id) : 0;
        // Its results are final now: each student of the phase is told (once per phase).
        await notifyResultsPublished(tx, phaseId, now);
        const admitted = await repo.countAdmitted(tx, phaseId);
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'phase.close',
          entityType: 'phase',
          entityId: phaseId,
          before: { state: row.state },
          after: {
            state: 'closed',
            nextPhaseId: next?.id ?? null,
            admitted,
            added,
            endedAttempts: ended,
            acceptedOpen: accepted,
            changes: changes.map(({ studentId, before, after }) => ({ studentId, before, after })),
            diplomas,
          },
        });
        return { ...toPhaseDto(closed, examId), advancedCount: admitted, changes, diplomas };
      });
    },

    /**
     * Starts the review of a phase: a hybrid phase's answer uploads stop and its pages are
     * marked; an online phase's open items are marked once its tests are over. The test-review
     * module checks every question to mark has 2 reviewers and 1 mediator
     * (INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS) and assigns the work in the same transaction.
     * Repeating it changes nothing.
     */
    async startReview(
      actor: Actor,
      examId: string,
      editionId: string,
      phaseId: string,
    ): Promise<Phase> {
      const { access } = await requirePhase(db, actor, examId, editionId, phaseId);
      if (!canManageExam(access)) throw forbidden();
      return db.transaction(async (tx) => {
        if (!(await lockEdition(tx, editionId, 'share'))) throw notFound('edition');
        const row = await repo.lockPhase(tx, phaseId, 'update');
        if (!row) throw notFound('phase');
        if (row.reviewStarted) return toPhaseDto(row, examId);
        if (row.state === 'closed') throw new AppError('PHASE_CLOSED', 'The phase is closed');
        const assigned = await beginReview(tx, row, actor.id, clock.now());
        const updated = await repo.updatePhase(tx, phaseId, { reviewStarted: true });
        if (!updated) throw notFound('phase');
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'phase.review.start',
          entityType: 'phase',
          entityId: phaseId,
          before: { reviewStarted: false },
          after: { reviewStarted: true, assigned },
        });
        return toPhaseDto(updated, examId);
      });
    },
  };
}

export type PhasesService = ReturnType<typeof phasesService>;
