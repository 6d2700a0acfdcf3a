import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUCHAREST, COUNTIES } from '../../../shared/constants.js';
import type {
  PhaseRules,
  Prize,
  RuleGradeSummary,
  RulePreset,
} from '../../../shared/schemas/rankings.js';
import { makeTestWithItems } from '../../db/factories.js';

import {
  answers,
  editionStudents,
  phasePrizes,
  phaseResults,
  phaseStudents,
  testResults,
  users,
} from '../../db/schema.js';
import { normalizeName } from '../../lib/text.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { type Person, rankingsKit } from './rankings.fixtures.js';

// The olympiad's published rules on a realistic county phase, end to end: a generated phase of
// two grades with every county and Bucharest's six sectors (some Bucharest students without a
// sector), problem marks 0–7 on a 4 × 7 paper (so many equal totals, and ties at every cut),
// stored as the results module stores them. The presets, read from the API, are dry-run and
// applied through the API; what they decide (read back from the database) is compared with a
// small reference written here from the glossary's words, on the raw marks, sharing nothing
// with the engine (not its ranks, not its SQL, not its units).

let t: TestApp;
let kit: ReturnType<typeof rankingsKit>;
let admin: Person;
let presets: Record<string, RulePreset>;

type Raw = {
  id: string;
  grade: number;
  county: string;
  sector: number | null;
  marks: [number, number, number, number];
};

/** A fixed pseudo-random sequence (mulberry32): the same phase on every run. */
function randomFrom(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

/** A problem's mark as olympiad papers have them: many 0s and 7s, the rest in between. */
function markOf(random: () => number): number {
  const x = random();
  if (x < 0.3) return 0;
  if (x < 0.5) return 7;
  return 1 + Math.floor(random() * 6);
}

/** Every county with 5–14 students a grade; București 6–15 a sector, and 3 without a sector. */
function generate(seed: number): Omit<Raw, 'id'>[] {
  const random = randomFrom(seed);
  const marks = (): Raw['marks'] => [
    markOf(random),
    markOf(random),
    markOf(random),
    markOf(random),
  ];
  const out: Omit<Raw, 'id'>[] = [];
  for (const grade of [5, 6]) {
    for (const county of COUNTIES) {
      if (county === BUCHAREST) continue;
      const n = 5 + Math.floor(random() * 10);
      for (let i = 0; i < n; i += 1) out.push({ grade, county, sector: null, marks: marks() });
    }
    for (let sector = 1; sector <= 6; sector += 1) {
      const n = 6 + Math.floor(random() * 10);
      for (let i = 0; i < n; i += 1) {
        out.push({ grade, county: BUCHAREST, sector, marks: marks() });
      }
    }
    for (let i = 0; i < 3; i += 1) {
      out.push({ grade, county: BUCHAREST, sector: null, marks: marks() });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// The reference, from shared/GLOSSARY.md ("Two real rule sets"), one student at a time.

const totalOf = (s: Raw) => s.marks.reduce((a, b) => a + b, 0);
/** From the last problem back: the key of "the higher mark on the last problem, then …". */
const lastFirst = (s: Raw) => [...s.marks].reverse();

/** a ahead of b in the grade's ranking: higher total, then (with the tie-break) the key. */
function ahead(a: Raw, b: Raw, tieBreak: boolean): boolean {
  if (totalOf(a) !== totalOf(b)) return totalOf(a) > totalOf(b);
  if (!tieBreak) return false;
  const [x, y] = [lastFirst(a), lastFirst(b)];
  for (let i = 0; i < x.length; i += 1) {
    if (x[i] !== y[i]) return (x[i] ?? 0) > (y[i] ?? 0);
  }
  return false;
}

/**
 * County phase → national phase: at least 14 points; each county, and each of Bucharest's six
 * sectors, one place per grade taken by its best (all of them when tied); a place not taken
 * joins the 43 extra places, which go down the national ranking of the grade to those who did
 * not take their county's place (all tied at the last one go on). A Bucharest student with no
 * sector has no county place to take. Prizes by the county's bands, from 14 points.
 */
function referenceCountyPhase(all: Raw[], tieBreak: boolean) {
  const admitted = new Map<string, 'county' | 'extra'>();
  const prizes = new Map<string, Prize>();
  const perGrade = new Map<number, { units: number; unused: number }>();
  for (const grade of [5, 6]) {
    const students = all.filter((s) => s.grade === grade);
    const eligible = students.filter((s) => totalOf(s) >= 14);
    const units = [
      ...COUNTIES.filter((c) => c !== BUCHAREST).map((c) => (s: Raw) => s.county === c),
      ...[1, 2, 3, 4, 5, 6].map((n) => (s: Raw) => s.county === BUCHAREST && s.sector === n),
    ];
    let unused = 0;
    for (const inUnit of units) {
      const mine = eligible.filter(inUnit);
      const best = mine.filter((s) => !mine.some((o) => ahead(o, s, tieBreak)));
      for (const s of best) admitted.set(s.id, 'county');
      if (best.length === 0) unused += 1;
    }
    perGrade.set(grade, { units: units.length, unused });
    const rest = eligible.filter((s) => !admitted.has(s.id));
    const extra = 43 + unused;
    for (const s of rest) {
      if (rest.filter((o) => ahead(o, s, tieBreak)).length < extra) admitted.set(s.id, 'extra');
    }
    for (const s of eligible) {
      const total = totalOf(s);
      prizes.set(
        s.id,
        total >= 25.5 ? 'first' : total >= 22.5 ? 'second' : total >= 19.5 ? 'third' : 'mention',
      );
    }
  }
  return { admitted, prizes, perGrade };
}

/**
 * National phase prizes: per grade one first, one second, one third prize, then mentions for
 * 15% of the grade's students (rounded up), in ranking order; equal scores share a distinction.
 */
function referenceNationalPrizes(all: Raw[]) {
  const prizes = new Map<string, Prize>();
  for (const grade of [5, 6]) {
    const students = all.filter((s) => s.grade === grade);
    let left = students;
    const levels: [Prize, number][] = [
      ['first', 1],
      ['second', 1],
      ['third', 1],
      ['mention', Math.ceil((15 * students.length) / 100)],
    ];
    for (const [prize, count] of levels) {
      const given = left.filter((s) => left.filter((o) => ahead(o, s, false)).length < count);
      for (const s of given) prizes.set(s.id, prize);
      left = left.filter((s) => !prizes.has(s.id));
    }
  }
  return prizes;
}

// ---------------------------------------------------------------------------------------
// The phase, stored as the results module stores it.

let w: Awaited<ReturnType<ReturnType<typeof rankingsKit>['world']>>;
let raw: Raw[];

beforeAll(async () => {
  t = await buildTestApp();
  kit = rankingsKit(t);
  admin = await kit.person({ type: 'admin' });
  const list = await kit.call('GET', '/rules/presets', admin.headers);
  presets = Object.fromEntries((list.json() as RulePreset[]).map((p) => [p.id, p]));
  w = await kit.world();
  const db = t.database.db;
  const papers = new Map<number, Awaited<ReturnType<typeof makeTestWithItems>>>();
  for (const grade of [5, 6]) {
    papers.set(
      grade,
      await makeTestWithItems(db, {
        phaseId: w.phase.id,
        grades: [grade],
        items: [{ score: 7 }, { score: 7 }, { score: 7 }, { score: 7 }],
      }),
    );
  }
  const stamp = Date.now().toString(36);
  raw = generate(35).map((s) => ({ ...s, id: crypto.randomUUID() }));
  const userRows = raw.map((s, i) => {
    const givenName = `Elev${i}`;
    const familyName = `Olimpic${i}`;
    return {
      id: s.id,
      email: `olimpic${i}.${stamp}@example.ro`,
      type: 'student' as const,
      state: 'active' as const,
      registered: true,
      country: 'România',
      county: s.county,
      bucharestSector: s.sector,
      city: s.county,
      school: `Școala ${s.county}`,
      grade: s.grade,
      givenName,
      familyName,
      givenNameNormalized: normalizeName(givenName),
      familyNameNormalized: normalizeName(familyName),
    };
  });
  for (let i = 0; i < raw.length; i += 200) {
    const part = raw.slice(i, i + 200);
    await db.insert(users).values(userRows.slice(i, i + 200));
    await db.insert(editionStudents).values(
      part.map((s) => ({
        editionId: w.edition.id,
        studentId: s.id,
        grade: s.grade,
        cmsUsername: `o${s.id.slice(0, 8)}${stamp}`,
        cmsPassword: 'parola',
      })),
    );
    await db
      .insert(phaseStudents)
      .values(part.map((s) => ({ phaseId: w.phase.id, studentId: s.id })));
    await db.insert(phaseResults).values(
      part.map((s) => ({
        phaseId: w.phase.id,
        studentId: s.id,
        points: totalOf(s),
        awaitingItems: 0,
        tests: 1,
      })),
    );
    const paperOf = (s: Raw) =>
      papers.get(s.grade) as Awaited<ReturnType<typeof makeTestWithItems>>;
    await db.insert(testResults).values(
      part.map((s) => ({
        testId: paperOf(s).test.id,
        studentId: s.id,
        phaseId: w.phase.id,
        points: totalOf(s),
      })),
    );
    await db.insert(answers).values(
      part.flatMap((s) =>
        paperOf(s).questions.map((q, k) => ({
          id: crypto.randomUUID(),
          testId: paperOf(s).test.id,
          studentId: s.id,
          questionId: q.id,
          score: s.marks[k],
          scoreOrigin: 'auto' as const,
          scoreState: 'decided' as const,
        })),
      ),
    );
  }
}, 300_000);
afterAll(async () => {
  await t?.close();
});

type Row = { studentId: string; qualifiedBy: 'county' | 'extra' | null; prize: Prize | null };
type DryRun = {
  fingerprint: string;
  truncated: boolean;
  grades: RuleGradeSummary[];
  admitted: Row[];
  awarded: Row[];
  missingSectors: { studentId: string }[];
};

async function dryRun(rules: PhaseRules): Promise<DryRun> {
  const put = await kit.call('PUT', `${w.phaseUrl}/rules`, admin.headers, rules);
  expect(put.statusCode, put.body).toBe(200);
  const res = await kit.call('POST', `${w.phaseUrl}/rules/dry-run`, admin.headers, {});
  expect(res.statusCode, res.body).toBe(200);
  const run = res.json() as DryRun;
  expect(run.truncated).toBe(false);
  return run;
}

const sorted = <T>(entries: Iterable<[string, T]>) =>
  [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

describe("the olympiad's presets on a generated county phase", () => {
  it('has the shape of a real one: 47 units, ties at the cuts, students without a sector', () => {
    expect(raw.length).toBeGreaterThan(800);
    for (const grade of [5, 6]) {
      const totals = raw.filter((s) => s.grade === grade).map(totalOf);
      // Equal totals everywhere: 29 possible totals for ~460 students a grade.
      expect(new Set(totals).size).toBeLessThan(30);
      expect(totals.filter((x) => x >= 14).length).toBeGreaterThan(90);
    }
  });

  it('county → national: admitted as the reference admits, applied and read back', async () => {
    const rules = presets.county_to_national?.rules as PhaseRules;
    const run = await dryRun(rules);
    const ref = referenceCountyPhase(raw, false);
    for (const g of run.grades) {
      const r = ref.perGrade.get(g.grade ?? 0);
      expect(g.countyPlaces).toBe(47);
      expect(g.extraPlaces).toBe(43 + (r?.unused ?? 0));
    }
    expect(sorted(run.admitted.map((a) => [a.studentId, a.qualifiedBy]))).toEqual(
      sorted(ref.admitted),
    );
    expect(run.missingSectors).toHaveLength(6);

    const refused = await kit.call('POST', `${w.phaseUrl}/rules/apply`, admin.headers, {
      fingerprint: run.fingerprint,
    });
    expect(refused.statusCode).toBe(409);
    const applied = await kit.call('POST', `${w.phaseUrl}/rules/apply`, admin.headers, {
      fingerprint: run.fingerprint,
      acceptMissingSectors: true,
    });
    expect(applied.statusCode, applied.body).toBe(200);
    const db = t.database.db;
    const decided = await db
      .select({ id: phaseStudents.studentId, result: phaseStudents.result })
      .from(phaseStudents)
      .where(eq(phaseStudents.phaseId, w.phase.id));
    expect(decided).toHaveLength(raw.length);
    expect(sorted(decided.filter((d) => d.result === 'admitted').map((d) => [d.id, true]))).toEqual(
      sorted([...ref.admitted.keys()].map((id) => [id, true])),
    );
    expect(decided.every((d) => d.result === 'admitted' || d.result === 'rejected')).toBe(true);
    const prizes = await db
      .select({ id: phasePrizes.studentId, prize: phasePrizes.prize })
      .from(phasePrizes)
      .where(eq(phasePrizes.phaseId, w.phase.id));
    expect(sorted(prizes.map((p) => [p.id, p.prize]))).toEqual(sorted(ref.prizes));
  });

  it('county → national with ties broken from the last problem back', async () => {
    const preset = presets.county_to_national?.rules as PhaseRules;
    const run = await dryRun({ ...preset, tieBreak: 'items_from_last' });
    const ref = referenceCountyPhase(raw, true);
    expect(sorted(run.admitted.map((a) => [a.studentId, a.qualifiedBy]))).toEqual(
      sorted(ref.admitted),
    );
    // The tie-break orders, it does not change who reaches 14 or the bands.
    expect(sorted(run.awarded.map((a) => [a.studentId, a.prize]))).toEqual(sorted(ref.prizes));
  });

  it('national prizes: by count and by share, equal scores sharing', async () => {
    const run = await dryRun(presets.national_prizes?.rules as PhaseRules);
    expect(sorted(run.awarded.map((a) => [a.studentId, a.prize]))).toEqual(
      sorted(referenceNationalPrizes(raw)),
    );
    expect(run.admitted).toEqual([]);
  });
});
