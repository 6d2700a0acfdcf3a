import type {
  AdmitResult,
  AdmitThresholdInput,
  AdmitTopInput,
  Count,
  FailedStudents,
  PhaseResult,
  PhaseResultsInput,
  PhaseStudentListItem,
} from '../../../shared/schemas/exams.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import { AppError, forbidden, notFound, validationFailed } from '../../lib/errors.js';
import { parseFilter, parseWhere } from '../../lib/filter/index.js';
import { phaseCompleteness } from '../results/index.js';
import { type PhaseContext, requirePhase } from './exams.access.js';
import { pickFields } from './exams.dto.js';
import { canSetResults, seesWholeExam } from './exams.policy.js';
import * as repo from './phase-students.repo.js';
import { lockPhase } from './phases.repo.js';

export type PhaseStudentsDeps = { db: Db };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function parseJsonParam(text: string | undefined, name: 'filter' | 'where'): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw validationFailed([{ code: 'invalid', path: [name] }]);
  }
}

/** Whether a where tree names `studentGrade`; `''` values (meaning "all grades") are dropped. */
function dropEmptyGrade(where: Record<string, unknown>): boolean {
  let named = false;
  for (const [key, value] of Object.entries(where)) {
    if (key === 'studentGrade') {
      named = true;
      if (value === '') delete where[key];
    } else if ((key === 'and' || key === 'or') && Array.isArray(value)) {
      for (const child of value) if (isObject(child) && dropEmptyGrade(child)) named = true;
    }
  }
  return named;
}

/**
 * SPEC.md §5: the grade filter defaults to the exam's first grade when the client did not set
 * it, and an empty string means every grade.
 */
export function withDefaultGrade(where: unknown, grades: readonly number[]): unknown {
  const first = [...grades].sort((a, b) => a - b)[0];
  if (where === undefined || where === null) {
    return first === undefined ? where : { studentGrade: first };
  }
  if (!isObject(where)) return where; // the filter parser reports it
  const copy = structuredClone(where);
  const named = dropEmptyGrade(copy);
  return named || first === undefined ? copy : { ...copy, studentGrade: first };
}

export function phaseStudentsService({ db }: PhaseStudentsDeps) {
  /** Coordinators see only their own students; the others every participant. */
  const ownerOf = (actor: Actor, context: PhaseContext) =>
    seesWholeExam(context.access) ? undefined : actor.id;

  /** Changes results under a share lock on the open phase, so closing waits for it. Audited. */
  async function changeResults(
    actor: Actor,
    context: PhaseContext,
    result: PhaseResult,
    how: 'manual' | 'top' | 'threshold',
    pick: (tx: Db) => Promise<{ ids: string[]; failed: string[] }>,
  ): Promise<{ ids: string[]; failed: string[] }> {
    if (!canSetResults(context.access)) throw forbidden();
    return db.transaction(async (tx) => {
      const phase = await lockPhase(tx, context.phase.id, 'share');
      if (!phase) throw notFound('phase');
      if (phase.state === 'closed') throw new AppError('PHASE_CLOSED', 'The phase is closed');
      const picked = await pick(tx);
      if (picked.ids.length > 0) {
        const before = await repo.findResults(tx, phase.id, picked.ids);
        await repo.setResults(tx, phase.id, picked.ids, result);
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'phase.results.set',
          entityType: 'phase',
          entityId: phase.id,
          before,
          after: { result, studentIds: picked.ids },
          reason: how,
        });
      }
      return picked;
    });
  }

  /**
   * Admission by rule ranks by phase totals, so they must be complete for the grade (or the
   * whole phase): no item waiting to be marked, no attempt still running. Otherwise
   * RESULTS_INCOMPLETE says how far they are, and nobody is admitted.
   */
  async function assertTotalsComplete(tx: Db, phaseId: string, grade: number | undefined) {
    const gaps = await phaseCompleteness(tx, phaseId, grade);
    if (gaps.awaitingItems > 0 || gaps.runningAttempts > 0) {
      throw new AppError('RESULTS_INCOMPLETE', 'Some results are not complete yet', gaps);
    }
  }

  return {
    /** The phase's participants with their decision; grade defaults to the exam's first. */
    async listStudents(
      actor: Actor,
      ids: { examId: string; editionId: string; phaseId: string },
      rawFilter: string | undefined,
    ): Promise<PhaseStudentListItem[]> {
      const context = await requirePhase(db, actor, ids.examId, ids.editionId, ids.phaseId);
      const raw = parseJsonParam(rawFilter, 'filter') ?? {};
      const filterObject = isObject(raw)
        ? { ...raw, where: withDefaultGrade(raw.where, context.exam.grades) }
        : raw;
      const filter = parseFilter(filterObject, repo.phaseStudentsResource);
      const rows = await repo.listPhaseStudents(db, ids.phaseId, filter, ownerOf(actor, context));
      return rows.map((row) => pickFields(row, filter.fields, 'studentId'));
    },

    /** The twin count, with the same grade default. */
    async countStudents(
      actor: Actor,
      ids: { examId: string; editionId: string; phaseId: string },
      rawWhere: string | undefined,
    ): Promise<Count> {
      const context = await requirePhase(db, actor, ids.examId, ids.editionId, ids.phaseId);
      const where = parseWhere(
        withDefaultGrade(parseJsonParam(rawWhere, 'where'), context.exam.grades),
        repo.phaseStudentsResource,
      );
      return {
        count: await repo.countPhaseStudents(db, ids.phaseId, where, ownerOf(actor, context)),
      };
    },

    /** Admits or rejects participants; ids not in the phase come back in `failedStudents`. */
    async setResults(
      actor: Actor,
      ids: { examId: string; editionId: string; phaseId: string },
      input: PhaseResultsInput,
    ): Promise<FailedStudents> {
      const context = await requirePhase(db, actor, ids.examId, ids.editionId, ids.phaseId);
      const wanted = [...new Set(input.studentIds)];
      const { failed } = await changeResults(actor, context, input.result, 'manual', async (tx) => {
        const present = new Set(
          (await repo.findResults(tx, ids.phaseId, wanted)).map((r) => r.studentId),
        );
        return {
          ids: wanted.filter((id) => present.has(id)),
          failed: wanted.filter((id) => !present.has(id)),
        };
      });
      return { failedStudents: failed };
    },

    /**
     * Admits the best `count` of each grade (ties at the cut included) by phase total; refused
     * while totals are incomplete (RESULTS_INCOMPLETE).
     */
    async admitTop(
      actor: Actor,
      ids: { examId: string; editionId: string; phaseId: string },
      input: AdmitTopInput,
    ): Promise<AdmitResult> {
      const context = await requirePhase(db, actor, ids.examId, ids.editionId, ids.phaseId);
      const picked = await changeResults(actor, context, 'admitted', 'top', async (tx) => {
        await assertTotalsComplete(tx, ids.phaseId, input.grade);
        return {
          ids: await repo.findQualifying(tx, ids.phaseId, { grade: input.grade, top: input.count }),
          failed: [],
        };
      });
      return { admittedCount: picked.ids.length };
    },

    /**
     * Admits everyone whose phase total is at least `minScore` (of one grade if given);
     * refused while totals are incomplete (RESULTS_INCOMPLETE).
     */
    async admitThreshold(
      actor: Actor,
      ids: { examId: string; editionId: string; phaseId: string },
      input: AdmitThresholdInput,
    ): Promise<AdmitResult> {
      const context = await requirePhase(db, actor, ids.examId, ids.editionId, ids.phaseId);
      const picked = await changeResults(actor, context, 'admitted', 'threshold', async (tx) => {
        await assertTotalsComplete(tx, ids.phaseId, input.grade);
        return {
          ids: await repo.findQualifying(tx, ids.phaseId, {
            grade: input.grade,
            minScore: input.minScore,
          }),
          failed: [],
        };
      });
      return { admittedCount: picked.ids.length };
    },
  };
}

export type PhaseStudentsService = ReturnType<typeof phaseStudentsService>;
