import { PAGE_SIZE } from '../../../shared/constants.js';
import type { Count } from '../../../shared/schemas/exams.js';
import {
  DEFAULT_PHASE_RULES,
  type MyRanking,
  type PhaseRules,
  type RankingListItem,
  type RankingRow,
  type RankingSummary,
} from '../../../shared/schemas/rankings.js';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../lib/auth-guard.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, forbidden, validationFailed } from '../../lib/errors.js';
import { parseFilter, parseWhere, projectFields } from '../../lib/filter/index.js';
import type { PhaseIds } from '../../lib/route-params.js';
import { withDefaultGrade } from '../exams/index.js';
import { type PhaseTiming, phaseCompleteness, resultState } from '../results/index.js';
import {
  ensureFreshRanks,
  type RankingViewer,
  rebuildWantedRanks,
  requireViewer,
} from './rankings.access.js';
import { csvHeader, csvLine, toPublishedRow, toStaffRow } from './rankings.dto.js';
import { canStudentSeeRanking } from './rankings.policy.js';
import * as repo from './rankings.repo.js';
import * as ranks from './ranks.repo.js';

export type RankingsDeps = { db: Db; clock: Clock };

/**
 * Rows read from the cursor at a time when streaming elevi.csv: 100,000 rows are 20 round trips,
 * and a batch is about 400 kB of CSV in memory.
 */
const CSV_BATCH = 5000;

/** How long a download refused while the ranking is updated is told to wait. */
export const RANKING_UPDATING_RETRY_SECONDS = 30;

const rankingUpdating = () =>
  new AppError('RANKING_UPDATING', 'The ranking is being updated; try again shortly', {
    retryAfter: RANKING_UPDATING_RETRY_SECONDS,
  });

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

const timingOf = (viewer: RankingViewer): PhaseTiming => ({
  state: viewer.phase.state,
  appealEndDate: viewer.phase.appealEndDate,
});

export function rankingsService({ db, clock }: RankingsDeps) {
  /** Brings the viewer's ranking up to date; answers whether the background is doing it. */
  const freshen = (viewer: RankingViewer) =>
    ensureFreshRanks(db, clock, viewer.phase.id, viewer.rules, viewer.freshness);

  /**
   * The viewer, with the ranking made fresh; a student only where the phase publishes it
   * (403 otherwise: they take part, so the phase is theirs to know of).
   */
  async function openRanking(actor: Actor, ids: PhaseIds, forDownload = false) {
    const viewer = await requireViewer(db, actor, ids);
    if (
      viewer.kind === 'student' &&
      (forDownload || !canStudentSeeRanking(viewer.rules.publication))
    ) {
      throw forbidden();
    }
    const updating = await freshen(viewer);
    const resource =
      viewer.kind === 'student' ? repo.studentRankingResource : repo.staffRankingResource;
    const scope: repo.RankingScope = {
      phaseId: viewer.phase.id,
      ...(viewer.kind === 'coordinator' ? { teacherId: actor.id } : {}),
    };
    return { viewer, resource, scope, updating };
  }

  /** The filter with SPEC.md §5's grade default (the exam's first; "" means every grade). */
  const filterOf = (raw: string | undefined, viewer: RankingViewer) => {
    const parsed = parseJsonParam(raw, 'filter') ?? {};
    return isObject(parsed)
      ? { ...parsed, where: withDefaultGrade(parsed.where, viewer.exam.grades) }
      : parsed;
  };

  const present = (actor: Actor, viewer: RankingViewer) => {
    const now = clock.now();
    const timing = timingOf(viewer);
    const publication = viewer.rules.publication;
    return (row: repo.RankedRow): RankingRow =>
      viewer.kind === 'student' && publication !== 'none'
        ? toPublishedRow(row, publication, timing, now, actor.id)
        : toStaffRow(row, timing, now, actor.id);
  };

  return {
    /** A page of the phase's ranking (SPEC.md §7), ranks always over the whole grade. */
    async listRanking(actor: Actor, ids: PhaseIds, rawFilter?: string): Promise<RankingListItem[]> {
      const { viewer, resource, scope } = await openRanking(actor, ids);
      const filter = parseFilter(filterOf(rawFilter, viewer), resource, {
        defaultLimit: PAGE_SIZE,
      });
      const rows = await repo.listRanked(db, scope, filter, resource);
      const toRow = present(actor, viewer);
      return rows.map((r) => {
        const row = toRow(r);
        return { ...projectFields(row, filter.fields), _id: row._id };
      });
    },

    /** The twin count, with the same grade default and scope. */
    async countRanking(actor: Actor, ids: PhaseIds, rawWhere?: string): Promise<Count> {
      const { viewer, resource, scope } = await openRanking(actor, ids);
      const where = parseWhere(
        withDefaultGrade(parseJsonParam(rawWhere, 'where'), viewer.exam.grades),
        resource,
      );
      return { count: await repo.countRanked(db, scope, where, resource) };
    },

    /**
     * elevi.csv: every row the filter matches (limit and skip ignored), written to `write` a
     * batch at a time from a database cursor. Checks run before anything is written, so a
     * refusal is an ordinary error answer. Staff and coordinators only.
     */
    async prepareDownload(actor: Actor, ids: PhaseIds, rawFilter?: string) {
      const { viewer, resource, scope, updating } = await openRanking(actor, ids, true);
      // A file is a record: it waits for the ranking to be up to date rather than show an old one.
      if (updating) throw rankingUpdating();
      const parsed = parseFilter(filterOf(rawFilter, viewer), resource);
      const filter = { ...parsed, limit: 0, skip: 0 };
      const timing = timingOf(viewer);
      const now = clock.now();
      return async (write: (chunk: string) => Promise<void>) => {
        await write(csvHeader());
        await repo.streamRanked(db, scope, filter, resource, CSV_BATCH, (rows) => {
          let chunk = '';
          for (const row of rows)
            chunk += csvLine(row, resultState(row.awaitingItems, timing, now));
          return write(chunk);
        });
      };
    },

    /** Whether the ranking is provisional or final, and how many are ranked per grade. */
    async summary(actor: Actor, ids: PhaseIds): Promise<RankingSummary> {
      const viewer = await requireViewer(db, actor, ids);
      const updating = await freshen(viewer);
      const gaps = await phaseCompleteness(db, viewer.phase.id, undefined);
      const incomplete = gaps.awaitingItems + gaps.runningAttempts;
      return {
        phaseId: viewer.phase.id,
        phaseState: viewer.phase.state,
        scoreState: resultState(incomplete, timingOf(viewer), clock.now()),
        awaitingItems: gaps.awaitingItems,
        runningAttempts: gaps.runningAttempts,
        appealEndDate: viewer.phase.appealEndDate?.toISOString() ?? null,
        tieBreak: viewer.rules.tieBreak,
        publication: viewer.rules.publication,
        grades: (await repo.countByGrade(db, viewer.phase.id))
          .filter((g): g is { grade: number; ranked: number } => g.grade !== null)
          .map((g) => ({ grade: g.grade, ranked: g.ranked })),
        updating,
      };
    },

    /**
     * Rebuilds the rankings reads asked the background for (rankings.access.ts
     * `ensureFreshRanks`); the server runs it every few seconds. Answers how many.
     */
    rebuildWanted: () => rebuildWantedRanks(db, clock),

    /** A student's own rank in every phase they have a result in (newest first). */
    async myRankings(actor: Actor): Promise<MyRanking[]> {
      if (actor.type !== 'student') throw forbidden();
      for (const phaseId of await repo.phasesOfStudent(db, actor.id)) {
        const { rules, ...freshness } = await ranks.findRankingState(db, phaseId);
        await ensureFreshRanks(db, clock, phaseId, rules ?? DEFAULT_PHASE_RULES, freshness);
      }
      const now = clock.now();
      return (await repo.findStudentStandings(db, actor.id)).map((r) => {
        const rules = (
          typeof r.rules === 'string' ? JSON.parse(r.rules) : r.rules
        ) as PhaseRules | null;
        const appealEnd = r.appeal_end_date === null ? null : new Date(r.appeal_end_date);
        return {
          examId: r.exam_id,
          examName: r.exam_name,
          editionId: r.edition_id,
          editionName: r.edition_name,
          phaseId: r.phase_id,
          phaseName: r.phase_name,
          phaseState: r.phase_state,
          grade: r.grade === null ? null : Number(r.grade),
          rank: Number(r.rank),
          rankedInGrade: Number(r.ranked_in_grade),
          total: Number(r.total),
          scoreState: resultState(
            Number(r.awaiting_items),
            { state: r.phase_state, appealEndDate: appealEnd },
            now,
          ),
          status: r.result,
          prize: r.prize,
          publication: rules?.publication ?? 'none',
          code: r.code,
          diplomaAvailable: r.phase_state === 'closed',
        };
      });
    },
  };
}

export type RankingsService = ReturnType<typeof rankingsService>;
