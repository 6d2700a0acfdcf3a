import type { County } from '../../../../shared/constants.js';
import {
  type AwardMethod,
  type AwardRules,
  MAX_PLACES,
  MAX_RULE_POINTS,
  type PhaseRules,
  PRIZES,
  type Prize,
  phaseRulesSchema,
  type QualificationRules,
  type RankingPublication,
  type TieBreak,
  type TiesAtCut,
} from '../../../../shared/schemas/rankings.js';
import { numberInText } from '../../i18n/numbers.js';

/** One prize level as the form holds it: every level has a row, `on` says whether it counts. */
export type LevelDraft = { prize: Prize; on: boolean; method: AwardMethod; value: string };
export type CountyDraft = { county: County | ''; places: string };

/**
 * A phase's rules as the form edits them: numbers as typed (a decimal comma is fine), and the
 * qualification and prize sections kept while switched off, so switching back restores them.
 */
export type RulesDraft = {
  tieBreak: TieBreak;
  publication: RankingPublication;
  qualificationOn: boolean;
  qMinTotal: string;
  placesPerCounty: string;
  countyPlaces: CountyDraft[];
  extraPlaces: string;
  unusedToExtra: boolean;
  qTiesAtCut: TiesAtCut;
  /** Bucharest's six sectors take county places as counties of their own. */
  sectorsAsCounties: boolean;
  awardsOn: boolean;
  aMinTotal: string;
  levels: LevelDraft[];
  aTiesAtCut: TiesAtCut;
};

/** Field → error code (shown as `error_<code>`): `qMinTotal`, `levels.2.value`, … */
export type DraftErrors = Record<string, string>;

/** What a switched-on qualification starts from: one place per county, nothing more. */
const BLANK_QUALIFICATION: QualificationRules = {
  minTotal: null,
  placesPerCounty: 1,
  countyPlaces: [],
  extraPlaces: 0,
  unusedCountyPlacesToExtra: false,
  tiesAtCut: 'all',
  sectorsAsCounties: false,
};

/** What switched-on prizes start from: no level chosen yet. */
const BLANK_AWARDS: AwardRules = { minTotal: null, levels: [], tiesAtCut: 'all' };

/** The form's values for stored rules, numbers as the language writes them ("25,5"); a
 * section that is off starts blank. */
export function rulesToDraft(rules: PhaseRules, language: string): RulesDraft {
  const text = (n: number | null) => (n === null ? '' : numberInText(n, language));
  const q = rules.qualification ?? BLANK_QUALIFICATION;
  const a = rules.awards ?? BLANK_AWARDS;
  return {
    tieBreak: rules.tieBreak,
    publication: rules.publication,
    qualificationOn: rules.qualification !== null,
    qMinTotal: text(q.minTotal),
    placesPerCounty: text(q.placesPerCounty),
    countyPlaces: q.countyPlaces.map((c) => ({ county: c.county, places: text(c.places) })),
    extraPlaces: text(q.extraPlaces),
    unusedToExtra: q.unusedCountyPlacesToExtra,
    qTiesAtCut: q.tiesAtCut,
    sectorsAsCounties: q.sectorsAsCounties === true,
    awardsOn: rules.awards !== null,
    aMinTotal: text(a.minTotal),
    levels: PRIZES.map((prize) => {
      const level = a.levels.find((l) => l.prize === prize);
      return level
        ? { prize, on: true, method: level.method, value: text(level.value) }
        : { prize, on: false, method: 'count', value: '' };
    }),
    aTiesAtCut: a.tiesAtCut,
  };
}

/**
 * A number as a person types it: digits with an optional decimal point or comma ("25,5").
 * Returns the error code when it is not one.
 */
export function readNumber(value: string): number | 'required' | 'not_number' {
  const trimmed = value.trim();
  if (!trimmed) return 'required';
  if (!/^\d+([.,]\d+)?$/.test(trimmed)) return 'not_number';
  return Number(trimmed.replace(',', '.'));
}

function places(value: string, field: string, errors: DraftErrors): number {
  const n = readNumber(value);
  if (typeof n !== 'number') errors[field] = n;
  else if (!Number.isInteger(n) || n > MAX_PLACES) errors[field] = 'invalid';
  return typeof n === 'number' ? n : 0;
}

function points(value: string, field: string, errors: DraftErrors, optional = false) {
  if (optional && !value.trim()) return null;
  const n = readNumber(value);
  if (typeof n !== 'number') errors[field] = n;
  else if (n > MAX_RULE_POINTS) errors[field] = 'invalid';
  return typeof n === 'number' ? n : 0;
}

/**
 * The rules the form describes, or what is wrong with it, field by field, before anything is
 * sent (the server checks the same again).
 */
export function draftToRules(
  d: RulesDraft,
): { rules: PhaseRules; errors: null } | { rules: null; errors: DraftErrors } {
  const errors: DraftErrors = {};
  let qualification: PhaseRules['qualification'] = null;
  if (d.qualificationOn) {
    const seen = new Set<string>();
    const countyPlaces = d.countyPlaces.map((c, i) => {
      if (c.county === '') errors[`countyPlaces.${i}.county`] = 'required';
      else if (seen.has(c.county)) errors[`countyPlaces.${i}.county`] = 'invalid';
      seen.add(c.county);
      return {
        county: c.county as County,
        places: places(c.places, `countyPlaces.${i}.places`, errors),
      };
    });
    qualification = {
      minTotal: points(d.qMinTotal, 'qMinTotal', errors, true),
      placesPerCounty: places(d.placesPerCounty, 'placesPerCounty', errors),
      countyPlaces,
      extraPlaces: places(d.extraPlaces, 'extraPlaces', errors),
      unusedCountyPlacesToExtra: d.unusedToExtra,
      tiesAtCut: d.qTiesAtCut,
      sectorsAsCounties: d.sectorsAsCounties,
    };
  }
  let awards: PhaseRules['awards'] = null;
  if (d.awardsOn) {
    const levels = d.levels.flatMap((l, i) => {
      if (!l.on) return [];
      const field = `levels.${i}.value`;
      const value = points(l.value, field, errors);
      if (errors[field] === undefined) {
        if (l.method === 'count' && !Number.isInteger(value)) errors[field] = 'invalid';
        if (l.method === 'share' && (value ?? 0) > 100) errors[field] = 'invalid';
      }
      return [{ prize: l.prize, method: l.method, value: value ?? 0 }];
    });
    if (levels.length === 0) errors.levels = 'required';
    awards = {
      minTotal: points(d.aMinTotal, 'aMinTotal', errors, true),
      levels,
      tiesAtCut: d.aTiesAtCut,
    };
  }
  if (Object.keys(errors).length > 0) return { rules: null, errors };
  const rules: PhaseRules = {
    tieBreak: d.tieBreak,
    publication: d.publication,
    qualification,
    awards,
  };
  // The contract's own check, so nothing the server would refuse is sent.
  const checked = phaseRulesSchema.safeParse(rules);
  if (!checked.success) return { rules: null, errors: { form: 'invalid' } };
  return { rules: checked.data, errors: null };
}

/** A preset's rules (from the API), keeping how the phase shows its ranking and breaks ties. */
export const presetRules = (preset: PhaseRules, current: RulesDraft): PhaseRules => ({
  ...preset,
  tieBreak: current.tieBreak,
  publication: current.publication,
});

/** JSON with keys sorted, so two rule sets compare by content, not by key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const sameRules = (a: PhaseRules, b: PhaseRules) => canonical(a) === canonical(b);
