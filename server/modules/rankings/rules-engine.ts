import { createHash } from 'node:crypto';
import { BUCHAREST, BUCHAREST_SECTORS, COUNTIES } from '../../../shared/constants.js';
import type { PhaseResult } from '../../../shared/schemas/exams.js';
import {
  type PhaseRules,
  PRIZES,
  type Prize,
  type QualifiedBy,
  type RuleChange,
  type RuleGradeSummary,
  type TiesAtCut,
} from '../../../shared/schemas/rankings.js';

// A phase's qualification and prize rules applied to its participants: a pure function of the
// ranking (ranks already carry the tie-break) and the rules, checked against a separate
// reference implementation by unit and property tests (rules-engine.test.ts).

/** A participant as the rules see them; `rank` and `total` are null when not ranked. */
export type RuleInput = {
  studentId: string;
  studentCounty: string | null;
  /** Bucharest's sector (1–6) of a Bucharest student; null elsewhere or not known. */
  studentSector: number | null;
  studentGrade: number | null;
  rank: number | null;
  total: number | null;
};

export type RuleOutcome = {
  studentId: string;
  /** null: the rules have no qualification. */
  admitted: boolean | null;
  qualifiedBy: QualifiedBy | null;
  prize: Prize | null;
};

export type RulesResult = {
  outcomes: Map<string, RuleOutcome>;
  grades: RuleGradeSummary[];
};

type Ranked = RuleInput & { rank: number; total: number };

/**
 * The first `n` of `candidates` (in rank order). Students with the rank of the last one taken:
 * with `all` every one of them too; with `none` none of them when they go past `n`.
 */
export function takeTop<T extends { rank: number }>(
  candidates: readonly T[],
  n: number,
  ties: TiesAtCut,
): T[] {
  if (n <= 0 || candidates.length === 0) return [];
  if (n >= candidates.length) return [...candidates];
  const cut = candidates[n - 1]?.rank ?? 0;
  const straddles = candidates[n]?.rank === cut;
  if (!straddles) return candidates.slice(0, n);
  return ties === 'all'
    ? candidates.filter((c) => c.rank <= cut)
    : candidates.filter((c) => c.rank < cut);
}

/** `share` percent of `count`, rounded up (15% of 20 is 3, not 4, despite floating point). */
export function shareOf(share: number, count: number): number {
  return Math.ceil((share * count) / 100 - 1e-9);
}

const byRank = (a: Ranked, b: Ranked) =>
  a.rank - b.rank || (a.studentId < b.studentId ? -1 : a.studentId > b.studentId ? 1 : 0);

const gradeKey = (grade: number | null) => (grade === null ? 'none' : String(grade));

/** A unit of county places: a county, or a sector of Bucharest (`București/3`). */
const sectorUnit = (sector: number) => `${BUCHAREST}/${sector}`;

/**
 * The units that get county places, each with the county whose places it has: the counties,
 * with București split into its six sectors when they count as counties.
 */
function placeUnits(sectorsAsCounties: boolean): { unit: string; county: string }[] {
  return COUNTIES.flatMap<{ unit: string; county: string }>((county) =>
    sectorsAsCounties && county === BUCHAREST
      ? BUCHAREST_SECTORS.map((sector) => ({ unit: sectorUnit(sector), county }))
      : [{ unit: county, county }],
  );
}

/** The unit a student takes a county place in; null: none (no county, or no sector). */
function unitOf(input: RuleInput, sectorsAsCounties: boolean): string | null {
  if (input.studentCounty === null) return null;
  if (!sectorsAsCounties || input.studentCounty !== BUCHAREST) return input.studentCounty;
  return input.studentSector === null ? null : sectorUnit(input.studentSector);
}

/**
 * Ranked Bucharest students the rules cannot place in a sector (their sector is not known)
 * while the sectors count as counties: they can only take extra places.
 */
export function missingSectors<T extends RuleInput>(inputs: readonly T[], rules: PhaseRules): T[] {
  if (!rules.qualification?.sectorsAsCounties) return [];
  return inputs.filter(
    (i) => i.rank !== null && i.studentCounty === BUCHAREST && i.studentSector === null,
  );
}

/** Applies the rules to every participant, grade by grade. */
export function applyRules(inputs: readonly RuleInput[], rules: PhaseRules): RulesResult {
  const outcomes = new Map<string, RuleOutcome>();
  const groups = new Map<string, RuleInput[]>();
  for (const input of inputs) {
    const key = gradeKey(input.studentGrade);
    const group = groups.get(key);
    if (group) group.push(input);
    else groups.set(key, [input]);
    outcomes.set(input.studentId, {
      studentId: input.studentId,
      admitted: rules.qualification ? false : null,
      qualifiedBy: null,
      prize: null,
    });
  }
  const grades: RuleGradeSummary[] = [];
  for (const members of groups.values()) {
    const grade = members[0]?.studentGrade ?? null;
    const ranked = members
      .filter((m): m is Ranked => m.rank !== null && m.total !== null)
      .sort(byRank);
    const summary: RuleGradeSummary = {
      grade,
      participants: members.length,
      ranked: ranked.length,
      eligible: ranked.length,
      countyPlaces: 0,
      countyTaken: 0,
      extraPlaces: 0,
      extraTaken: 0,
      admitted: 0,
      cutTotal: null,
      prizes: { first: 0, second: 0, third: 0, mention: 0 },
    };

    const q = rules.qualification;
    if (q) {
      const minimum = q.minTotal;
      const eligible = ranked.filter((r) => minimum === null || r.total >= minimum);
      summary.eligible = eligible.length;
      const sectors = q.sectorsAsCounties === true;
      const placesOf = new Map(q.countyPlaces.map((c) => [c.county as string, c.places]));
      const byUnit = new Map<string, Ranked[]>();
      for (const e of eligible) {
        const unit = unitOf(e, sectors);
        if (unit === null) continue;
        const list = byUnit.get(unit);
        if (list) list.push(e);
        else byUnit.set(unit, [e]);
      }
      const admitted = new Set<string>();
      let unused = 0;
      for (const { unit, county } of placeUnits(sectors)) {
        const places = placesOf.get(county) ?? q.placesPerCounty;
        summary.countyPlaces += places;
        const taken = takeTop(byUnit.get(unit) ?? [], places, q.tiesAtCut);
        for (const t of taken) {
          admitted.add(t.studentId);
          const outcome = outcomes.get(t.studentId);
          if (outcome) Object.assign(outcome, { admitted: true, qualifiedBy: 'county' });
        }
        summary.countyTaken += taken.length;
        unused += Math.max(0, places - taken.length);
      }
      summary.extraPlaces = q.extraPlaces + (q.unusedCountyPlacesToExtra ? unused : 0);
      const extra = takeTop(
        eligible.filter((e) => !admitted.has(e.studentId)),
        summary.extraPlaces,
        q.tiesAtCut,
      );
      for (const t of extra) {
        admitted.add(t.studentId);
        const outcome = outcomes.get(t.studentId);
        if (outcome) Object.assign(outcome, { admitted: true, qualifiedBy: 'extra' });
      }
      summary.extraTaken = extra.length;
      summary.admitted = admitted.size;
      summary.cutTotal = eligible.reduce<number | null>(
        (low, e) => (admitted.has(e.studentId) && (low === null || e.total < low) ? e.total : low),
        null,
      );
    }

    const a = rules.awards;
    if (a) {
      const minimum = a.minTotal;
      let pool = ranked.filter((r) => minimum === null || r.total >= minimum);
      for (const level of a.levels) {
        const picked =
          level.method === 'threshold'
            ? pool.filter((p) => p.total >= level.value)
            : takeTop(
                pool,
                level.method === 'count' ? level.value : shareOf(level.value, ranked.length),
                a.tiesAtCut,
              );
        const ids = new Set(picked.map((p) => p.studentId));
        for (const id of ids) {
          const outcome = outcomes.get(id);
          if (outcome) outcome.prize = level.prize;
        }
        summary.prizes[level.prize] += ids.size;
        pool = pool.filter((p) => !ids.has(p.studentId));
      }
    }
    grades.push(summary);
  }
  grades.sort(
    (x, y) => (x.grade ?? Number.MAX_SAFE_INTEGER) - (y.grade ?? Number.MAX_SAFE_INTEGER),
  );
  return { outcomes, grades };
}

/** Today's decision and prize of a participant, to compare with the rules' outcome. */
export type CurrentState = { studentId: string; status: PhaseResult | null; prize: Prize | null };

/**
 * What applying the rules would change: a decision where the rules qualify (admitted or
 * rejected), a prize where they award (given, changed or taken away). Rules without a
 * qualification leave decisions alone; rules without awards leave prizes alone.
 */
export function changesOf(
  current: readonly CurrentState[],
  result: RulesResult,
  rules: PhaseRules,
): Pick<RuleChange, 'studentId' | 'statusBefore' | 'statusAfter' | 'prizeBefore' | 'prizeAfter'>[] {
  const changes = [];
  for (const now of current) {
    const outcome = result.outcomes.get(now.studentId);
    if (!outcome) continue;
    const statusAfter: PhaseResult | null =
      rules.qualification && outcome.admitted !== null
        ? outcome.admitted
          ? 'admitted'
          : 'rejected'
        : now.status;
    const prizeAfter = rules.awards ? outcome.prize : now.prize;
    if (statusAfter !== now.status || prizeAfter !== now.prize) {
      changes.push({
        studentId: now.studentId,
        statusBefore: now.status,
        statusAfter,
        prizeBefore: now.prize,
        prizeAfter,
      });
    }
  }
  return changes;
}

/** JSON with object keys sorted, so equal rules read the same whatever order jsonb kept. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Names one outcome: the same rules and the same changes give the same fingerprint. */
export function fingerprintOf(
  rules: PhaseRules,
  changes: readonly { studentId: string; statusAfter: unknown; prizeAfter: unknown }[],
): string {
  const lines = changes
    .map((c) => `${c.studentId}:${c.statusAfter}:${c.prizeAfter}`)
    .sort()
    .join('\n');
  return createHash('sha256')
    .update(canonicalJson(rules))
    .update('\n')
    .update(lines)
    .digest('hex')
    .slice(0, 32);
}

/** Prizes in order of rank, for sorting lists. */
export const prizeOrder = (prize: Prize | null) =>
  prize === null ? PRIZES.length : PRIZES.indexOf(prize);
