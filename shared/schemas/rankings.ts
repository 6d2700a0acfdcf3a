import { z } from 'zod';
import { COUNTIES, MAX_SEARCH_LENGTH } from '../constants.js';
import { PHASE_RESULTS, PHASE_STATES } from './exams.js';
import { RESULT_STATES } from './results.js';

/**
 * Rankings, qualification and awards (SPEC.md §3 ranking row and filter, §5, §7 Ranking) under
 * `/api/v1/ranking-service`. Every path below starts with
 * `/api/v1/ranking-service/exams/{examId}/editions/{editionId}/phases/{phaseId}` unless it
 * starts with `/api/v1`.
 *
 * Staff (platform admins, the exam's admins and staff; an edition's coordinators see only their
 * own students, ranked among everyone):
 * - `GET …/rankings?filter=` → `RankingRow[]`. LoopBack filter: `limit` (default 10, at most
 *   1000), `skip`, `order` (default `rank ASC`; any field of RANKING_ORDER_FIELDS, e.g.
 *   `givenName ASC`, `total DESC`), `where` on the fields of RANKING_WHERE_FIELDS
 *   (familyName, givenName and their `…Normalized` twins take like/ilike/regexp; studentCounty,
 *   studentGrade, rank, total, status, prize, active, …). Without a `studentGrade` condition the
 *   exam's first grade applies; `studentGrade: ""` means every grade (SPEC.md §5). Only
 *   students with a phase result are ranked; a filter never changes anyone's rank.
 * - `GET …/rankings/count?where=` → `{ count }` (same grade default).
 * - `GET …/rankings/download?filter=` → `elevi.csv` (text/csv, UTF-8 with BOM, `;`-separated,
 *   decimal comma, columns RANKING_CSV_COLUMNS, every matching row: `limit`/`skip` ignored),
 *   streamed.
 * - `GET …/rankings/summary` → `RankingSummary` (provisional or final, how many per grade).
 * - `GET …/rules` → `PhaseRules` (defaults when never set); `PUT …/rules` with `PhaseRules`
 *   (exam admins and staff; only `publication` may change once the phase is closed:
 *   409 PHASE_CLOSED) → `PhaseRules`.
 * - `POST …/rules/dry-run` with `{ rules? }` (omitted: the stored rules) → `RulesDryRun`:
 *   who would be admitted and awarded and the difference from today's lists; changes nothing.
 * - `POST …/rules/apply` with `{ fingerprint }` (the dry run's) → `RulesApplyResult`: writes
 *   admitted/rejected and prizes for the stored rules, only what differs, audited. 409
 *   RULES_OUTCOME_CHANGED when the outcome is no longer the one the dry run showed (an appeal
 *   landed: run it again); 409 RESULTS_INCOMPLETE while items await marking or attempts run;
 *   409 PHASE_CLOSED once the phase is closed; 400 CLIENT_ERROR `{ rules: ['required'] }` when
 *   the stored rules have neither qualification nor awards; 409 SECTOR_MISSING (`details.students`
 *   their ids) when the rules count Bucharest's sectors and some Bucharest participants have
 *   none, unless the request says `acceptMissingSectors: true`.
 * - `GET /api/v1/ranking-service/rules/presets` → `RulePreset[]` (staff): the olympiad rule sets
 *   to start from, named in ro and en; `GET …/rules/presets/{presetId}` → `RulePreset` (404
 *   for another id).
 *
 * Students (role student):
 * - `GET /api/v1/ranking-service/my-rankings` → `MyRanking[]`: their own rank in every phase
 *   they have a result in.
 * - `GET …/rankings?filter=` and `…/rankings/count?where=` where the phase publishes its
 *   ranking (`publication` not `none`; else 403 OPERATION_NOT_PERMITTED), for participants of
 *   the phase (else 404): rows in the phase's privacy mode (see RANKING_PUBLICATIONS), `where`
 *   only on studentCounty, studentGrade, rank, total, prize; order on rank or total.
 *
 * Closing the last phase of an edition: `PUT /api/v1/exam-mgmt/…/phases/{phaseId}/finish` with
 * `{ "lastPhase": true }` (shared/schemas/exams.ts phaseFinishSchema), accepted when nobody of
 * the phase is admitted (else 409 EDITION_PHASE_NOT_CREATED: they would have nowhere to go); it
 * makes the phase's results and prizes final, and its diplomas can then be printed.
 */

/** How ties in the phase total are broken; `none` (default): tied students share the rank. */
export const TIE_BREAKS = [
  'none',
  /**
   * Higher points on the test's last item first, then on the one before it, and so on (a
   * usual olympiad rule); students equal on every item still share the rank.
   */
  'items_from_last',
] as const;
export type TieBreak = (typeof TIE_BREAKS)[number];

/**
 * Whether, and how, a phase shows its whole ranking to its students:
 * - `none`: each student sees only their own rank (default);
 * - `names`: family and given name, county and school;
 * - `initials`: initials (`A. P.`) and county;
 * - `codes`: the student's code in the phase (RankingRow.code) and county.
 * Staff always see full names. A student finds their own row by `isMe` in every mode.
 */
export const RANKING_PUBLICATIONS = ['none', 'names', 'initials', 'codes'] as const;
export type RankingPublication = (typeof RANKING_PUBLICATIONS)[number];

/** Prize levels, highest first (Premiul I, II, III, Mențiune); null: no prize. */
export const PRIZES = ['first', 'second', 'third', 'mention'] as const;
export type Prize = (typeof PRIZES)[number];

/** The name of each prize on documents (diplomas, the CSV), in Romanian. */
export const PRIZE_DOCUMENT_NAMES: Record<Prize, string> = {
  first: 'Premiul I',
  second: 'Premiul al II-lea',
  third: 'Premiul al III-lea',
  mention: 'Mențiune',
};

/**
 * How a prize level picks its students, among those not given a higher level, in ranking
 * order of their grade:
 * - `count`: the first `value` students;
 * - `share`: the first `value` percent of the grade's ranked students, rounded up;
 * - `threshold`: everyone with a phase total of at least `value` (score bands: each level's
 *   band ends where the level above starts).
 */
export const AWARD_METHODS = ['count', 'share', 'threshold'] as const;
export type AwardMethod = (typeof AWARD_METHODS)[number];

/**
 * Students tied (same rank) with the last one a count or share takes: `all` take it too, even
 * beyond the number (olympiads' habit); `none` leaves the whole tied group out.
 */
export const TIES_AT_CUT = ['all', 'none'] as const;
export type TiesAtCut = (typeof TIES_AT_CUT)[number];

/** Why a student is admitted by the rules: their county's place, or an extra place by score. */
export const QUALIFIED_BY = ['county', 'extra'] as const;
export type QualifiedBy = (typeof QUALIFIED_BY)[number];

export const MAX_PLACES = 100_000;
export const MAX_RULE_POINTS = 1_000_000;

// ---------------------------------------------------------------------------------------
// Rules (stored per phase; the same schema for GET, PUT and the dry run)

const placesField = () =>
  z.number({ error: 'required' }).int('invalid').min(0, 'invalid').max(MAX_PLACES, 'invalid');
const pointsField = () =>
  z.number({ error: 'not_number' }).min(0, 'invalid').max(MAX_RULE_POINTS, 'invalid');

/**
 * Qualification to the next phase, per grade: students with at least `minTotal` (null: no
 * minimum) take their county's places (`placesPerCounty`, or the county's own number in
 * `countyPlaces`), best first; then `extraPlaces` go down the grade's ranking to those not yet
 * admitted, whatever their county, plus the county places nobody took when
 * `unusedCountyPlacesToExtra`. `tiesAtCut` applies to both cuts. Everyone else in the phase is
 * rejected. Counties are those of shared/constants.ts COUNTIES; a student without one takes
 * only extra places. With `sectorsAsCounties` each of Bucharest's six sectors is a unit of its
 * own in place of București (47 units instead of 42), with the places București would have
 * (its `countyPlaces` entry, else `placesPerCounty`) each: a sector's places go to that
 * sector's best. A Bucharest student whose sector is not known then takes only extra places,
 * and the dry run names them (`missingSectors`).
 */
export const qualificationRulesSchema = z
  .object({
    minTotal: pointsField().nullable(),
    placesPerCounty: placesField(),
    countyPlaces: z
      .array(z.object({ county: z.enum(COUNTIES, { error: 'invalid' }), places: placesField() }))
      .max(COUNTIES.length, 'too_long')
      .refine((list) => new Set(list.map((c) => c.county)).size === list.length, 'invalid'),
    extraPlaces: placesField(),
    unusedCountyPlacesToExtra: z.boolean({ error: 'invalid' }),
    tiesAtCut: z.enum(TIES_AT_CUT, { error: 'invalid' }),
    /** Bucharest's sectors count as counties (false when omitted). */
    sectorsAsCounties: z.boolean({ error: 'invalid' }).default(false),
  })
  .strict();
export type QualificationRules = z.infer<typeof qualificationRulesSchema>;

/** One prize level: `value` is a count, a percentage (0–100) or points (AWARD_METHODS). */
export const prizeLevelRuleSchema = z
  .object({
    prize: z.enum(PRIZES, { error: 'required' }),
    method: z.enum(AWARD_METHODS, { error: 'required' }),
    value: pointsField(),
  })
  .strict()
  .refine((l) => l.method !== 'count' || Number.isInteger(l.value), {
    message: 'invalid',
    path: ['value'],
  })
  .refine((l) => l.method !== 'share' || l.value <= 100, { message: 'invalid', path: ['value'] });
export type PrizeLevelRule = z.infer<typeof prizeLevelRuleSchema>;

/**
 * Prizes, per grade: the levels in PRIZES order (any of them, each at most once), taken one
 * after the other down the ranking; only students with at least `minTotal` get one.
 */
export const awardRulesSchema = z
  .object({
    minTotal: pointsField().nullable(),
    levels: z
      .array(prizeLevelRuleSchema)
      .min(1, 'required')
      .max(PRIZES.length, 'too_long')
      .refine((levels) => {
        const order = levels.map((l) => PRIZES.indexOf(l.prize));
        return order.every((p, i) => i === 0 || (order[i - 1] ?? -1) < p);
      }, 'invalid'),
    tiesAtCut: z.enum(TIES_AT_CUT, { error: 'invalid' }),
  })
  .strict();
export type AwardRules = z.infer<typeof awardRulesSchema>;

/** A phase's ranking and rule settings (`GET`/`PUT …/rules`). */
export const phaseRulesSchema = z
  .object({
    tieBreak: z.enum(TIE_BREAKS, { error: 'invalid' }),
    publication: z.enum(RANKING_PUBLICATIONS, { error: 'invalid' }),
    /** null: the phase qualifies nobody by rule (e.g. a national phase). */
    qualification: qualificationRulesSchema.nullable(),
    /** null: no prizes by rule. */
    awards: awardRulesSchema.nullable(),
  })
  .strict();
export type PhaseRules = z.infer<typeof phaseRulesSchema>;

/** What a phase has until someone sets its rules. */
export const DEFAULT_PHASE_RULES: PhaseRules = {
  tieBreak: 'none',
  publication: 'none',
  qualification: null,
  awards: null,
};

export const RULE_PRESET_IDS = ['county_to_national', 'national_prizes'] as const;
export type RulePresetId = (typeof RULE_PRESET_IDS)[number];

/** A text in both languages of the interface. */
const bilingualSchema = z.object({ ro: z.string(), en: z.string() });

/**
 * A rule set of a real olympiad to load and adapt (`GET /api/v1/ranking-service/rules/presets`
 * lists them, `…/rules/presets/{presetId}` gives one): its name and what it does, in Romanian
 * and English, and the rules themselves (shared/GLOSSARY.md, "Two real rule sets"). The
 * server keeps them; the rules page and any API client read the same ones.
 */
export const rulePresetSchema = z.object({
  id: z.enum(RULE_PRESET_IDS),
  name: bilingualSchema,
  description: bilingualSchema,
  rules: phaseRulesSchema,
});
export type RulePreset = z.infer<typeof rulePresetSchema>;

// ---------------------------------------------------------------------------------------
// Ranking (responses)

/**
 * One ranked student (SPEC.md §3 ranking row, plus the rank and what decides it). For staff
 * `_id` is the student's id; in a student's published view it is the row's `code` (initials
 * and codes modes hide who is who) and the hidden fields are null.
 */
export const rankingRowSchema = z.object({
  _id: z.string(),
  familyName: z.string().nullable(),
  givenName: z.string().nullable(),
  studentCounty: z.string().nullable(),
  /** A Bucharest student's sector (null: elsewhere, not set, or hidden in a published view). */
  studentSector: z.number().nullable(),
  studentGrade: z.number().nullable(),
  school: z.string().nullable(),
  /** The student's code in this phase (stable, 10 characters), shown in `codes` mode. */
  code: z.string(),
  /** Rank in the grade (1, 2, 2, 4 on a tie). */
  rank: z.number(),
  /** Students ranked in the same grade. */
  rankedInGrade: z.number(),
  /** Phase total (the results module's sum over the phase's tests). */
  total: z.number(),
  scoreState: z.enum(RESULT_STATES),
  /** The staff's decision on going on (null: none yet); null in a student's view. */
  status: z.enum(PHASE_RESULTS).nullable(),
  prize: z.enum(PRIZES).nullable(),
  /** Whether this row is the caller's own. */
  isMe: z.boolean(),
});
export type RankingRow = z.infer<typeof rankingRowSchema>;
export const rankingListItemSchema = rankingRowSchema.partial().extend({ _id: z.string() });
export type RankingListItem = z.infer<typeof rankingListItemSchema>;

/** Fields staff may use in `where` (students: studentCounty, studentGrade, rank, total, prize). */
export const RANKING_WHERE_FIELDS = [
  '_id',
  'familyName',
  'givenName',
  'familyNameNormalized',
  'givenNameNormalized',
  'studentCounty',
  /** `{ studentCounty: 'București', studentSector: null }`: Bucharest students without one. */
  'studentSector',
  'studentGrade',
  'school',
  'code',
  'rank',
  'total',
  'status',
  'prize',
  /** The student's account is active (SPEC.md §3 ranking filter `onlyActive`). */
  'active',
] as const;
/** Fields `order` may name (staff; students: rank, total). */
export const RANKING_ORDER_FIELDS = [
  'familyName',
  'givenName',
  'studentCounty',
  'studentGrade',
  'school',
  'rank',
  'total',
] as const;
export const DEFAULT_RANKING_ORDER = 'rank ASC';
export const RANKING_CSV_NAME = 'elevi.csv';
export const MAX_RANKING_SEARCH_LENGTH = MAX_SEARCH_LENGTH;

/**
 * The columns of `elevi.csv`, in order, with their Romanian headers (the file is a document:
 * Romanian, `;` between fields and a decimal comma, as spreadsheets set to Romanian read it).
 * Grades are written as the number (99: Absolvent); `scoreState` as `în corectare`,
 * `provizoriu` or `final`; `status` as `admis`/`respins`; `prize` as PRIZE_DOCUMENT_NAMES.
 * A cell starting with `=`, `+`, `-` or `@` gets a leading `'` so no spreadsheet runs it.
 * `studentSector` is the sector's number, or `necompletat` for a Bucharest student without one.
 */
export const RANKING_CSV_COLUMNS = [
  { key: 'rank', header: 'Loc' },
  { key: 'familyName', header: 'Nume' },
  { key: 'givenName', header: 'Prenume' },
  { key: 'studentGrade', header: 'Clasa' },
  { key: 'studentCounty', header: 'Județ' },
  { key: 'school', header: 'Școala' },
  { key: 'total', header: 'Punctaj' },
  { key: 'scoreState', header: 'Stare rezultat' },
  { key: 'status', header: 'Rezultat' },
  { key: 'prize', header: 'Premiu' },
  { key: 'code', header: 'Cod' },
  /** Bucharest's sector, `necompletat` for a Bucharest student without one. */
  { key: 'studentSector', header: 'Sector' },
] as const;

/** `GET …/rankings/summary`: whether the ranking is provisional or final, and its size. */
export const rankingSummarySchema = z.object({
  phaseId: z.string(),
  phaseState: z.enum(PHASE_STATES),
  /**
   * The phase as a whole: `awaiting_marking` while any item waits for marking, `provisional`
   * until the appeal window ends, `final` after it or once the phase is closed.
   */
  scoreState: z.enum(RESULT_STATES),
  awaitingItems: z.number(),
  runningAttempts: z.number(),
  appealEndDate: z.string().nullable(),
  tieBreak: z.enum(TIE_BREAKS),
  publication: z.enum(RANKING_PUBLICATIONS),
  /** Ranked students per grade, ascending by grade. */
  grades: z.array(z.object({ grade: z.number(), ranked: z.number() })),
  /**
   * The ranking is being brought up to date in the background (a phase too large to rank
   * within a request, after a change): lists show the last one until it is done.
   */
  updating: z.boolean(),
});
export type RankingSummary = z.infer<typeof rankingSummarySchema>;

/** `GET /api/v1/ranking-service/my-rankings`: a student's own rank in one phase. */
export const myRankingSchema = z.object({
  examId: z.string(),
  examName: z.string(),
  editionId: z.string(),
  editionName: z.string(),
  phaseId: z.string(),
  phaseName: z.string(),
  phaseState: z.enum(PHASE_STATES),
  grade: z.number().nullable(),
  rank: z.number(),
  rankedInGrade: z.number(),
  total: z.number(),
  scoreState: z.enum(RESULT_STATES),
  status: z.enum(PHASE_RESULTS).nullable(),
  prize: z.enum(PRIZES).nullable(),
  /** Whether the whole ranking is shown to students, and how. */
  publication: z.enum(RANKING_PUBLICATIONS),
  /** The student's code in the phase (their row in `codes` mode). */
  code: z.string(),
  /** A diploma can be downloaded (the phase is closed). */
  diplomaAvailable: z.boolean(),
});
export type MyRanking = z.infer<typeof myRankingSchema>;

// ---------------------------------------------------------------------------------------
// Dry run and apply

/** One student as the rules see them (the dry run's lists). */
export const ruleOutcomeRowSchema = z.object({
  studentId: z.string(),
  familyName: z.string().nullable(),
  givenName: z.string().nullable(),
  studentCounty: z.string().nullable(),
  /** Bucharest's sector (1–6) of a Bucharest student; null elsewhere or not set. */
  studentSector: z.number().nullable(),
  studentGrade: z.number().nullable(),
  /** null: no result in the phase (absent), never ranked. */
  rank: z.number().nullable(),
  total: z.number().nullable(),
  /** null when the rules have no qualification. */
  admitted: z.boolean().nullable(),
  qualifiedBy: z.enum(QUALIFIED_BY).nullable(),
  prize: z.enum(PRIZES).nullable(),
});
export type RuleOutcomeRow = z.infer<typeof ruleOutcomeRowSchema>;

/** A student whose decision or prize the rules would change. */
export const ruleChangeSchema = z.object({
  studentId: z.string(),
  familyName: z.string().nullable(),
  givenName: z.string().nullable(),
  studentCounty: z.string().nullable(),
  studentSector: z.number().nullable(),
  studentGrade: z.number().nullable(),
  rank: z.number().nullable(),
  total: z.number().nullable(),
  statusBefore: z.enum(PHASE_RESULTS).nullable(),
  statusAfter: z.enum(PHASE_RESULTS).nullable(),
  prizeBefore: z.enum(PRIZES).nullable(),
  prizeAfter: z.enum(PRIZES).nullable(),
});
export type RuleChange = z.infer<typeof ruleChangeSchema>;

/** What the rules give in one grade. */
export const ruleGradeSummarySchema = z.object({
  grade: z.number().nullable(),
  /** Participants of the grade, and how many of them have a result (are ranked). */
  participants: z.number(),
  ranked: z.number(),
  /** Ranked with at least the qualification minimum. */
  eligible: z.number(),
  countyPlaces: z.number(),
  countyTaken: z.number(),
  /** Extra places including the county places added to them. */
  extraPlaces: z.number(),
  extraTaken: z.number(),
  admitted: z.number(),
  /** The lowest total admitted (null: nobody). */
  cutTotal: z.number().nullable(),
  prizes: z.object({
    first: z.number(),
    second: z.number(),
    third: z.number(),
    mention: z.number(),
  }),
});
export type RuleGradeSummary = z.infer<typeof ruleGradeSummarySchema>;

/** Most rows each list of a dry run carries (`truncated` says when more exist). */
export const MAX_DRY_RUN_ROWS = 5000;

/** `POST …/rules/dry-run`. */
export const rulesDryRunRequestSchema = z.object({ rules: phaseRulesSchema.optional() }).strict();
export type RulesDryRunRequest = z.input<typeof rulesDryRunRequestSchema>;

export const rulesDryRunSchema = z.object({
  rules: phaseRulesSchema,
  /** Whether these are the stored rules (only those can be applied). */
  isStoredRules: z.boolean(),
  scoreState: z.enum(RESULT_STATES),
  awaitingItems: z.number(),
  runningAttempts: z.number(),
  phaseState: z.enum(PHASE_STATES),
  /** Apply would be accepted now (stored rules, open phase, complete results, some rule). */
  canApply: z.boolean(),
  /** Identifies this outcome; `apply` refuses another (RULES_OUTCOME_CHANGED). */
  fingerprint: z.string(),
  grades: z.array(ruleGradeSummarySchema),
  /** Who would be admitted, by grade and rank. */
  admitted: z.array(ruleOutcomeRowSchema),
  /** Who would get a prize, by grade and rank. */
  awarded: z.array(ruleOutcomeRowSchema),
  /** The difference from today's decisions and prizes, by grade and rank. */
  changes: z.array(ruleChangeSchema),
  changeCount: z.number(),
  /**
   * Bucharest participants with a result whose sector is not set while the rules count the
   * sectors as counties (they can take only extra places): apply refuses (409
   * SECTOR_MISSING) until they are set or `acceptMissingSectors` is sent.
   */
  missingSectors: z.array(ruleOutcomeRowSchema),
  truncated: z.boolean(),
});
export type RulesDryRun = z.infer<typeof rulesDryRunSchema>;

/**
 * `GET …/rules/status`: whether the decisions and prizes written by the rules still are what the
 * stored rules give. After an appeal or a key fix moves scores they may not be: the rules page
 * says so at once, without waiting for a dry run.
 */
export const rulesStatusSchema = z.object({
  /** When the rules were last applied (or the phase closed again with them); null: never. */
  appliedAt: z.string().nullable(),
  /** Applied before, the phase open, and the stored rules would now decide otherwise. */
  outOfDate: z.boolean(),
  /** How many students' decision or prize would change (0 unless out of date). */
  changeCount: z.number().int(),
});
export type RulesStatus = z.infer<typeof rulesStatusSchema>;

/** `POST …/rules/apply`. */
export const rulesApplyRequestSchema = z
  .object({
    fingerprint: z.string({ error: 'required' }).min(1, 'required').max(100, 'too_long'),
    /** Apply although Bucharest students of the phase have no sector (they take no sector place). */
    acceptMissingSectors: z.boolean({ error: 'invalid' }).optional(),
  })
  .strict();
export type RulesApplyRequest = z.input<typeof rulesApplyRequestSchema>;

export const rulesApplyResultSchema = z.object({
  /** Students whose decision or prize changed. */
  changed: z.number(),
  admitted: z.number(),
  rejected: z.number(),
  prizesSet: z.number(),
  prizesRemoved: z.number(),
});
export type RulesApplyResult = z.infer<typeof rulesApplyResultSchema>;
