import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUCHAREST_SECTORS, COUNTIES } from '../../../shared/constants.js';
import {
  type AwardRules,
  type PhaseRules,
  PRIZES,
  type Prize,
  type QualificationRules,
} from '../../../shared/schemas/rankings.js';
import { RULE_PRESETS } from './rule-presets.js';
import {
  applyRules,
  changesOf,
  fingerprintOf,
  missingSectors,
  type RuleInput,
  shareOf,
} from './rules-engine.js';

// ---------------------------------------------------------------------------------------
// The reference: the rules read word by word, slowly, one student at a time. The engine must
// give the same answer for every input.

type Student = {
  id: string;
  county: string | null;
  /** Bucharest's sector of a Bucharest student (null: not known). */
  sector: number | null;
  grade: number | null;
  /** null: no result (absent). */
  total: number | null;
  /** The tie-break key (items' points from the last one back); [] without a tie-break. */
  tieKey: number[];
};

/** a is strictly better than b: higher total, then the first differing tie key higher. */
function better(a: Student, b: Student): boolean {
  if ((a.total ?? 0) !== (b.total ?? 0)) return (a.total ?? 0) > (b.total ?? 0);
  for (let i = 0; i < Math.max(a.tieKey.length, b.tieKey.length); i += 1) {
    const x = a.tieKey[i] ?? -1;
    const y = b.tieKey[i] ?? -1;
    if (x !== y) return x > y;
  }
  return false;
}

/** Rank in the grade: one more than the students of the grade strictly better. */
function referenceRanks(students: Student[]): Map<string, number> {
  const ranks = new Map<string, number>();
  for (const s of students) {
    if (s.total === null) continue;
    const ahead = students.filter(
      (o) => o.total !== null && o.grade === s.grade && better(o, s),
    ).length;
    ranks.set(s.id, ahead + 1);
  }
  return ranks;
}

type RefOutcome = { admitted: boolean | null; by: 'county' | 'extra' | null; prize: Prize | null };

/**
 * A student goes on when fewer than `places` of the group are strictly ahead of them (ties at
 * the cut all go on), or, with ties left out, when at most `places` are ahead of or level with
 * them (themselves included).
 */
function getsPlace(
  mine: number,
  groupRanks: number[],
  places: number,
  ties: 'all' | 'none',
): boolean {
  return ties === 'all'
    ? groupRanks.filter((r) => r < mine).length < places
    : groupRanks.filter((r) => r <= mine).length <= places;
}

function referenceRules(students: Student[], rules: PhaseRules): Map<string, RefOutcome> {
  const ranks = referenceRanks(students);
  const out = new Map<string, RefOutcome>();
  for (const s of students) {
    out.set(s.id, { admitted: rules.qualification ? false : null, by: null, prize: null });
  }
  const grades = [...new Set(students.map((s) => s.grade))];
  for (const grade of grades) {
    const ranked = students.filter((s) => s.grade === grade && ranks.has(s.id));
    const rankOf = (s: Student) => ranks.get(s.id) ?? 0;
    const q: QualificationRules | null = rules.qualification;
    if (q) {
      const eligible = ranked.filter((s) => q.minTotal === null || (s.total ?? 0) >= q.minTotal);
      let unused = 0;
      const county = new Set<string>();
      // The units with county places: each county, or each of Bucharest's sectors in its
      // stead when they count as counties (a Bucharest student without a sector is in none).
      const units: { county: string; members: Student[] }[] = [];
      for (const c of COUNTIES) {
        if (q.sectorsAsCounties && c === 'București') {
          for (const sector of BUCHAREST_SECTORS) {
            units.push({
              county: c,
              members: eligible.filter((s) => s.county === c && s.sector === sector),
            });
          }
        } else {
          units.push({ county: c, members: eligible.filter((s) => s.county === c) });
        }
      }
      for (const { county: c, members: group } of units) {
        const places = q.countyPlaces.find((p) => p.county === c)?.places ?? q.placesPerCounty;
        const taken = group.filter((s) =>
          getsPlace(rankOf(s), group.map(rankOf), places, q.tiesAtCut),
        );
        for (const s of taken) county.add(s.id);
        unused += places > taken.length ? places - taken.length : 0;
      }
      const extraPlaces = q.extraPlaces + (q.unusedCountyPlacesToExtra ? unused : 0);
      const rest = eligible.filter((s) => !county.has(s.id));
      for (const s of eligible) {
        const o = out.get(s.id);
        if (!o) continue;
        if (county.has(s.id)) {
          o.admitted = true;
          o.by = 'county';
        } else if (getsPlace(rankOf(s), rest.map(rankOf), extraPlaces, q.tiesAtCut)) {
          o.admitted = true;
          o.by = 'extra';
        }
      }
    }
    const a: AwardRules | null = rules.awards;
    if (a) {
      const awarded = new Set<string>();
      for (const level of a.levels) {
        const pool = ranked.filter(
          (s) => !awarded.has(s.id) && (a.minTotal === null || (s.total ?? 0) >= a.minTotal),
        );
        // Percentages here are whole numbers, so the count is exact integer arithmetic.
        const n =
          level.method === 'count'
            ? level.value
            : Math.floor((level.value * ranked.length + 99) / 100);
        const winners = pool.filter((s) =>
          level.method === 'threshold'
            ? (s.total ?? 0) >= level.value
            : getsPlace(rankOf(s), pool.map(rankOf), n, a.tiesAtCut),
        );
        for (const s of winners) {
          awarded.add(s.id);
          const o = out.get(s.id);
          if (o) o.prize = level.prize;
        }
      }
    }
  }
  return out;
}

/** The engine's input for these students, with the reference's ranks. */
function inputsOf(students: Student[]): RuleInput[] {
  const ranks = referenceRanks(students);
  return students.map((s) => ({
    studentId: s.id,
    studentCounty: s.county,
    studentSector: s.sector,
    studentGrade: s.grade,
    rank: ranks.get(s.id) ?? null,
    total: s.total,
  }));
}

function engine(students: Student[], rules: PhaseRules): Map<string, RefOutcome> {
  const { outcomes } = applyRules(inputsOf(students), rules);
  return new Map(
    [...outcomes].map(([id, o]) => [
      id,
      { admitted: o.admitted, by: o.qualifiedBy, prize: o.prize },
    ]),
  );
}

// ---------------------------------------------------------------------------------------
// Examples

let next = 0;
const student = (
  total: number | null,
  county: string | null = 'Cluj',
  grade: number | null = 7,
  tieKey: number[] = [],
  sector: number | null = null,
): Student => {
  next += 1;
  return { id: `s${String(next).padStart(4, '0')}`, county, sector, grade, total, tieKey };
};

const noRules: PhaseRules = {
  tieBreak: 'none',
  publication: 'none',
  qualification: null,
  awards: null,
};
const qualify = (q: Partial<QualificationRules>): PhaseRules => ({
  ...noRules,
  qualification: {
    minTotal: null,
    placesPerCounty: 0,
    countyPlaces: [],
    extraPlaces: 0,
    unusedCountyPlacesToExtra: false,
    tiesAtCut: 'all',
    sectorsAsCounties: false,
    ...q,
  },
});
const award = (a: Partial<AwardRules>): PhaseRules => ({
  ...noRules,
  awards: { minTotal: null, levels: [], tiesAtCut: 'all', ...a },
});

describe('ranks', () => {
  it('share a rank on a tie and skip the places it takes (1, 2, 2, 4), per grade', () => {
    const s = [student(20), student(18), student(18), student(10), student(18, 'Cluj', 8)];
    const ranks = referenceRanks(s);
    expect(s.map((x) => ranks.get(x.id))).toEqual([1, 2, 2, 4, 1]);
  });

  it('break a tie by the last item, then the one before, when a tie-break is set', () => {
    const s = [
      student(18, 'Cluj', 7, [7, 4]),
      student(18, 'Cluj', 7, [7, 5]),
      student(18, 'Cluj', 7, [7, 5]),
    ];
    const ranks = referenceRanks(s);
    expect(s.map((x) => ranks.get(x.id))).toEqual([3, 1, 1]);
  });
});

describe('qualification', () => {
  it('admits nobody under the minimum, whatever places are left', () => {
    const s = [student(13.5), student(14), student(27, 'Iași')];
    const out = engine(s, qualify({ minTotal: 14, placesPerCounty: 1, extraPlaces: 5 }));
    expect(s.map((x) => out.get(x.id)?.admitted)).toEqual([false, true, true]);
  });

  it("gives each county its places, best first, then extra places down the grade's ranking", () => {
    const s = [
      student(28, 'Cluj'),
      student(27, 'Cluj'),
      student(26, 'Cluj'),
      student(15, 'Iași'),
      student(20, 'București'),
      student(19, 'București'),
    ];
    const rules = qualify({
      placesPerCounty: 1,
      countyPlaces: [{ county: 'București', places: 2 }],
      extraPlaces: 1,
    });
    const out = engine(s, rules);
    expect(s.map((x) => out.get(x.id)?.by)).toEqual([
      'county',
      'extra',
      null,
      'county',
      'county',
      'county',
    ]);
    expect(applyRules(inputsOf(s), rules).grades[0]).toMatchObject({
      countyPlaces: 41 + 2,
      countyTaken: 4,
      extraPlaces: 1,
      extraTaken: 1,
      admitted: 5,
      cutTotal: 15,
    });
  });

  it('adds the county places nobody took to the extra places when asked', () => {
    const s = [student(28, 'Cluj'), student(27, 'Cluj'), student(26, 'Cluj')];
    const without = engine(s, qualify({ placesPerCounty: 1, extraPlaces: 1 }));
    expect(s.filter((x) => without.get(x.id)?.admitted)).toHaveLength(2);
    const withUnused = engine(
      s,
      qualify({ placesPerCounty: 1, extraPlaces: 1, unusedCountyPlacesToExtra: true }),
    );
    // 41 counties had no student: their places go down the ranking.
    expect(s.filter((x) => withUnused.get(x.id)?.admitted)).toHaveLength(3);
  });

  it('lets everyone tied at the cut go on, or nobody of them when told so', () => {
    const s = [student(20, 'Cluj'), student(18, 'Cluj'), student(18, 'Cluj'), student(10, 'Cluj')];
    const all = engine(s, qualify({ extraPlaces: 2, tiesAtCut: 'all' }));
    expect(s.map((x) => all.get(x.id)?.admitted)).toEqual([true, true, true, false]);
    const none = engine(s, qualify({ extraPlaces: 2, tiesAtCut: 'none' }));
    expect(s.map((x) => none.get(x.id)?.admitted)).toEqual([true, false, false, false]);
    const countyTie = engine(s.slice(1), qualify({ placesPerCounty: 1, tiesAtCut: 'all' }));
    expect(s.slice(1).map((x) => countyTie.get(x.id)?.by)).toEqual(['county', 'county', null]);
  });

  it("gives each of Bucharest's sectors its own place when they count as counties", () => {
    const sector = (total: number, n: number | null) => student(total, 'București', 7, [], n);
    const s = [
      sector(27, 1),
      sector(26, 1),
      sector(25, 1),
      sector(24, 1),
      sector(23, null), // sector not known: no sector place
      sector(12, 2),
      student(11, 'Cluj'),
    ];
    const bySector = engine(s, qualify({ placesPerCounty: 1, sectorsAsCounties: true }));
    expect(s.map((x) => bySector.get(x.id)?.by ?? null)).toEqual([
      'county',
      null,
      null,
      null,
      null,
      'county',
      'county',
    ]);
    // Six places for București as one county go to its best six, wherever they live.
    const asOne = engine(
      s,
      qualify({ placesPerCounty: 1, countyPlaces: [{ county: 'București', places: 6 }] }),
    );
    expect(s.map((x) => asOne.get(x.id)?.by ?? null)).toEqual([
      'county',
      'county',
      'county',
      'county',
      'county',
      'county',
      'county',
    ]);
    // The four empty sectors' places join the extra places, down the ranking.
    const extra = engine(
      s,
      qualify({ placesPerCounty: 1, sectorsAsCounties: true, unusedCountyPlacesToExtra: true }),
    );
    expect(s.map((x) => extra.get(x.id)?.by ?? null).slice(0, 5)).toEqual([
      'county',
      'extra',
      'extra',
      'extra',
      'extra',
    ]);
    const { grades } = applyRules(
      inputsOf(s),
      qualify({ placesPerCounty: 1, sectorsAsCounties: true }),
    );
    expect(grades[0]?.countyPlaces).toBe(47);
    expect(
      missingSectors(inputsOf(s), qualify({ sectorsAsCounties: true })).map((i) => i.studentId),
    ).toEqual([s[4]?.id]);
    expect(missingSectors(inputsOf(s), qualify({}))).toEqual([]);
  });

  it('rejects participants without a result and keeps grades apart', () => {
    const s = [student(null), student(20, 'Cluj', 5), student(19, 'Cluj', 6)];
    const out = engine(s, qualify({ placesPerCounty: 1 }));
    expect(s.map((x) => out.get(x.id)?.admitted)).toEqual([false, true, true]);
  });
});

describe('prizes', () => {
  it('by score bands (threshold): each band ends where the one above starts', () => {
    const totals = [28, 25.5, 25, 22.5, 22, 19.5, 19, 14, 13.5];
    const s = totals.map((t) => student(t));
    const out = engine(s, RULE_PRESETS.county_to_national.rules);
    expect(s.map((x) => out.get(x.id)?.prize)).toEqual([
      'first',
      'first',
      'second',
      'second',
      'third',
      'third',
      'mention',
      'mention',
      null,
    ]);
  });

  it('by count and share: one I, II, III, mentions for 15% rounded up; equal scores alike', () => {
    // 20 students: 15% is 3 mentions. Two tie for second place: both get Premiul II.
    const totals = [28, 27, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10];
    const s = totals.map((t) => student(t));
    const out = engine(s, RULE_PRESETS.national_prizes.rules);
    expect(s.slice(0, 9).map((x) => out.get(x.id)?.prize)).toEqual([
      'first',
      'second',
      'second',
      'third',
      'mention',
      'mention',
      'mention',
      null,
      null,
    ]);
    expect(shareOf(15, 20)).toBe(3);
    expect(shareOf(15, 7)).toBe(2);
    expect(shareOf(12.5, 8)).toBe(1);
  });

  it('gives nothing under the awards minimum', () => {
    const s = [student(30), student(5)];
    const out = engine(
      s,
      award({ minTotal: 10, levels: [{ prize: 'mention', method: 'count', value: 5 }] }),
    );
    expect(s.map((x) => out.get(x.id)?.prize)).toEqual(['mention', null]);
  });
});

describe('changes and fingerprint', () => {
  it('list only what differs from today, and name the outcome', () => {
    const s = [student(20), student(10)];
    const rules = {
      ...qualify({ extraPlaces: 1 }),
      awards: RULE_PRESETS.national_prizes.rules.awards,
    };
    const result = applyRules(inputsOf(s), rules);
    const [a, b] = s;
    const current = [
      { studentId: a?.id ?? '', status: 'admitted' as const, prize: 'first' as const },
      { studentId: b?.id ?? '', status: null, prize: null },
    ];
    const changes = changesOf(current, result, rules);
    expect(changes).toEqual([
      {
        studentId: b?.id,
        statusBefore: null,
        statusAfter: 'rejected',
        prizeBefore: null,
        prizeAfter: 'second',
      },
    ]);
    expect(fingerprintOf(rules, changes)).toBe(fingerprintOf(rules, [...changes]));
    expect(fingerprintOf(rules, changes)).not.toBe(fingerprintOf(rules, []));
    // Rules without awards leave prizes as they are.
    expect(
      changesOf(
        current,
        applyRules(inputsOf(s), qualify({ extraPlaces: 1 })),
        qualify({ extraPlaces: 1 }),
      ),
    ).toEqual([
      {
        studentId: b?.id,
        statusBefore: null,
        statusAfter: 'rejected',
        prizeBefore: null,
        prizeAfter: null,
      },
    ]);
  });
});

// ---------------------------------------------------------------------------------------
// Properties: the engine agrees with the reference on random phases and rules

const someCounties = ['Cluj', 'Iași', 'București', 'Olt', null] as const;
const studentArb = fc.record({
  county: fc.constantFrom(...someCounties),
  sector: fc.option(fc.constantFrom(...BUCHAREST_SECTORS), { nil: null, freq: 4 }),
  grade: fc.constantFrom(5, 6, null),
  // Few distinct totals, so ties are common; some students are absent.
  total: fc.option(
    fc.integer({ min: 0, max: 12 }).map((n) => n * 2.5),
    { freq: 8 },
  ),
  tieKey: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 2, maxLength: 2 }),
});
const studentsArb = (withTieKeys: boolean) =>
  fc.array(studentArb, { maxLength: 40 }).map((list) =>
    list.map((s, i) => ({
      id: `p${String(i).padStart(3, '0')}`,
      county: s.county,
      sector: s.county === 'București' ? s.sector : null,
      grade: s.grade,
      total: s.total,
      tieKey: withTieKeys ? s.tieKey : [],
    })),
  );
const tiesArb = fc.constantFrom('all' as const, 'none' as const);
/** Places of counties no generated student comes from: often none, so unused places stay few. */
const elsewhere = COUNTIES.filter((c) => !(someCounties as readonly (string | null)[]).includes(c));
const qualificationArb: fc.Arbitrary<QualificationRules> = fc
  .record({
    minTotal: fc.option(fc.integer({ min: 0, max: 30 }), { nil: null }),
    placesPerCounty: fc.integer({ min: 0, max: 3 }),
    countyPlaces: fc.subarray([
      { county: 'București' as const, places: 3 },
      { county: 'Olt' as const, places: 0 },
    ]),
    closeElsewhere: fc.boolean(),
    extraPlaces: fc.integer({ min: 0, max: 8 }),
    unusedCountyPlacesToExtra: fc.boolean(),
    tiesAtCut: tiesArb,
    sectorsAsCounties: fc.boolean(),
  })
  .map(({ closeElsewhere, ...q }) => ({
    ...q,
    countyPlaces: closeElsewhere
      ? [...q.countyPlaces, ...elsewhere.map((county) => ({ county, places: 0 }))]
      : q.countyPlaces,
  }));
const levelArb = (prize: Prize) =>
  fc.oneof(
    fc.record({
      prize: fc.constant(prize),
      method: fc.constant('count' as const),
      value: fc.integer({ min: 0, max: 5 }),
    }),
    fc.record({
      prize: fc.constant(prize),
      method: fc.constant('share' as const),
      value: fc.integer({ min: 0, max: 100 }),
    }),
    fc.record({
      prize: fc.constant(prize),
      method: fc.constant('threshold' as const),
      value: fc.integer({ min: 0, max: 30 }),
    }),
  );
const awardsArb: fc.Arbitrary<AwardRules> = fc.record({
  minTotal: fc.option(fc.integer({ min: 0, max: 30 }), { nil: null }),
  levels: fc
    .tuple(...PRIZES.map((p) => fc.option(levelArb(p), { nil: null })))
    .map((levels) => levels.filter((l) => l !== null))
    .filter((levels) => levels.length > 0),
  tiesAtCut: tiesArb,
});
const rulesArb: fc.Arbitrary<PhaseRules> = fc.record({
  tieBreak: fc.constant('none' as const),
  publication: fc.constant('none' as const),
  qualification: fc.option(qualificationArb, { nil: null }),
  awards: fc.option(awardsArb, { nil: null }),
});

describe('the engine against the reference', () => {
  it('decides every admission, its reason and every prize the same way', () => {
    fc.assert(
      fc.property(fc.boolean().chain(studentsArb), rulesArb, (students, rules) => {
        expect(engine(students, rules)).toEqual(referenceRules(students, rules));
      }),
      { numRuns: 1500 },
    );
  });

  it('treats students of the same grade, place unit and rank alike', () => {
    fc.assert(
      fc.property(studentsArb(false), rulesArb, (students, rules) => {
        const out = engine(students, rules);
        const ranks = referenceRanks(students);
        // The unit a county place goes to: the county, or the sector where sectors count.
        const sectors = rules.qualification?.sectorsAsCounties === true;
        const unit = (s: (typeof students)[number]) =>
          sectors && s.county === 'București' ? `${s.county}/${s.sector}` : s.county;
        for (const a of students) {
          for (const b of students) {
            if (a.grade !== b.grade || unit(a) !== unit(b) || !ranks.has(a.id)) continue;
            if (ranks.get(a.id) !== ranks.get(b.id)) continue;
            expect(out.get(a.id)).toEqual(out.get(b.id));
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never admits or awards anyone under a minimum, nor anyone absent', () => {
    fc.assert(
      fc.property(studentsArb(true), rulesArb, (students, rules) => {
        const out = engine(students, rules);
        for (const s of students) {
          const o = out.get(s.id);
          if (s.total === null) {
            expect(o?.admitted === true || o?.prize !== null).toBe(false);
            continue;
          }
          const qMin = rules.qualification?.minTotal;
          if (o?.admitted && qMin !== null && qMin !== undefined)
            expect(s.total).toBeGreaterThanOrEqual(qMin);
          const aMin = rules.awards?.minTotal;
          if (o?.prize && aMin !== null && aMin !== undefined)
            expect(s.total).toBeGreaterThanOrEqual(aMin);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('fills every place it can when ties do not stand in the way', () => {
    fc.assert(
      fc.property(studentsArb(true), fc.integer({ min: 0, max: 10 }), (students, extra) => {
        // Distinct ranks (ties broken by position): exactly min(extra, eligible) go on.
        const distinct = students.map((s, i) => ({
          ...s,
          total: s.total === null ? null : s.total + i / 1000,
        }));
        const rules = qualify({ extraPlaces: extra });
        const out = engine(distinct, rules);
        for (const grade of [5, 6, null]) {
          const ranked = distinct.filter((s) => s.grade === grade && s.total !== null);
          const admitted = ranked.filter((s) => out.get(s.id)?.admitted);
          expect(admitted).toHaveLength(Math.min(extra, ranked.length));
        }
      }),
      { numRuns: 300 },
    );
  });
});
