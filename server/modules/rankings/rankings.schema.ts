import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { PHASE_RESULTS } from '../../../shared/schemas/exams.js';
import { type PhaseRules, PRIZES } from '../../../shared/schemas/rankings.js';
import { tz } from '../../db/columns.js';
import { phases } from '../exams/exams.schema.js';
import { users } from '../users/users.schema.js';

const points = (name: string) => numeric(name, { precision: 10, scale: 2, mode: 'number' });

/** A phase's ranking and rule settings (shared/schemas/rankings.ts PhaseRules), as data. */
export const phaseRules = pgTable('phase_rules', {
  phaseId: uuid('phase_id')
    .primaryKey()
    .references(() => phases.id),
  rules: jsonb('rules').$type<PhaseRules>().notNull(),
  updatedBy: uuid('updated_by').references(() => users.id),
  updatedAt: tz('updated_at').notNull().defaultNow(),
});

/**
 * The maintained ranking: each ranked student of a phase (a participant with a phase total)
 * with their grade, total and rank in the grade, so a page is read through an index instead of
 * ranking the whole phase on every view. Rebuilt by the rankings module when the phase has
 * rows in `ranking_changes` (or was never ranked), before it is read.
 */
export const phaseRanks = pgTable(
  'phase_ranks',
  {
    phaseId: uuid('phase_id')
      .notNull()
      .references(() => phases.id),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id),
    grade: integer('grade'),
    points: points('points').notNull(),
    /** The tie-break's key (items' points from the last one back); null without a tie-break. */
    tieKey: numeric('tie_key', { mode: 'number' }).array(),
    rank: integer('rank').notNull(),
    rankedInGrade: integer('ranked_in_grade').notNull(),
    /**
     * The student's code in the phase: 10 random hex characters (40 bits) drawn when the row is
     * first made and kept while the student is ranked, so nobody can work it out from the ids
     * and it says nothing of when the student signed up.
     */
    code: text('code').notNull().default(sql`upper(substr(md5(gen_random_uuid()::text), 1, 10))`),
  },
  (t) => [
    primaryKey({ columns: [t.phaseId, t.studentId] }),
    index('phase_ranks_grade_rank_idx').on(t.phaseId, t.grade, t.rank, t.studentId),
    // A page ordered by total (highest first, nulls first as ORDER BY … DESC has them, ids
    // ascending: the list's tiebreak), of every grade or one, read from here instead of
    // sorting the phase.
    index('phase_ranks_points_idx').on(t.phaseId, t.points.desc().nullsFirst(), t.studentId),
  ],
);

/**
 * When a phase's ranking was last rebuilt (null: the row is being made for the first time),
 * how long that took, and whether a rebuild too long for a request is waiting for the
 * background job (rankings.access.ts `ensureFreshRanks`).
 */
export const rankingState = pgTable('ranking_state', {
  phaseId: uuid('phase_id')
    .primaryKey()
    .references(() => phases.id),
  computedAt: tz('computed_at'),
  rebuildMs: integer('rebuild_ms'),
  wantedAt: tz('wanted_at'),
});

/**
 * Something that can move ranks changed in a phase. Rows are appended by database triggers on
 * the tables ranks are made of (the migration `ranking_changes_triggers`: a phase total, a participant, a grade, a
 * deleted account), in the transaction of the change, whichever module made it; appending
 * never waits on another writer. The rankings module deletes a phase's rows when it rebuilds
 * that ranking; rows of a change committed meanwhile stay and cause the next rebuild.
 */
export const rankingChanges = pgTable(
  'ranking_changes',
  {
    phaseId: uuid('phase_id').notNull(),
    changedAt: tz('changed_at').notNull().defaultNow(),
  },
  (t) => [index('ranking_changes_phase_idx').on(t.phaseId)],
);

/** Prizes given by a phase's rules (Premiul I, II, III, Mențiune), one per student at most. */
export const phasePrizes = pgTable(
  'phase_prizes',
  {
    phaseId: uuid('phase_id')
      .notNull()
      .references(() => phases.id),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id),
    prize: text('prize', { enum: PRIZES }).notNull(),
    awardedBy: uuid('awarded_by').references(() => users.id),
    awardedAt: tz('awarded_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.phaseId, t.studentId] })],
);

/**
 * Each student's standing when the phase last closed (total, place, decision, prize), kept so
 * that closing it again after a reopening can say who changes. Replaced at every close.
 */
export const phaseCloseStandings = pgTable(
  'phase_close_standings',
  {
    phaseId: uuid('phase_id')
      .notNull()
      .references(() => phases.id),
    studentId: uuid('student_id')
      .notNull()
      .references(() => users.id),
    total: points('total'),
    rank: integer('rank'),
    result: text('result', { enum: PHASE_RESULTS }),
    prize: text('prize', { enum: PRIZES }),
    closedAt: tz('closed_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.phaseId, t.studentId] })],
);
