import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PhaseRules, RulePreset } from '../../../shared/schemas/rankings.js';
import { makeTestWithItems } from '../../db/factories.js';
import { answers, testResults, users } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { codeOf, type Person, rankingsKit } from './rankings.fixtures.js';

// The olympiad's own rules on a competition: the presets read from the API, Bucharest's
// sectors as counties, and ties at a cut broken by the problems' marks.

let t: TestApp;
let kit: ReturnType<typeof rankingsKit>;
let admin: Person;

beforeAll(async () => {
  t = await buildTestApp();
  kit = rankingsKit(t);
  admin = await kit.person({ type: 'admin' });
});
afterAll(async () => {
  await t.close();
});

type Json = Record<string, unknown>;
type DryRun = { canApply: boolean; fingerprint: string; admitted: Json[]; missingSectors: Json[] };

const PRESETS = '/rules/presets';

/** A phase of grade 5 whose 3-problem test is marked: each seed's marks, problem by problem. */
async function phaseWith(
  seeds: { name: string; county: string; sector?: number; marks: [number, number, number] }[],
) {
  const w = await kit.world();
  const db = t.database.db;
  const test = await makeTestWithItems(db, {
    phaseId: w.phase.id,
    grades: [5],
    items: [{ score: 7 }, { score: 7 }, { score: 7 }],
  });
  const s: Record<string, Person> = {};
  for (const seed of seeds) {
    const total = seed.marks.reduce((a, b) => a + b, 0);
    const p = await kit.student(w, {
      givenName: seed.name,
      familyName: 'Test',
      county: seed.county,
      total,
    });
    s[seed.name] = p;
    if (seed.sector !== undefined) {
      await db.update(users).set({ bucharestSector: seed.sector }).where(eq(users.id, p.id));
    }
    await db
      .insert(testResults)
      .values({ testId: test.test.id, studentId: p.id, phaseId: w.phase.id, points: total });
    for (const [i, item] of test.questions.entries()) {
      await db.insert(answers).values({
        id: crypto.randomUUID(),
        testId: test.test.id,
        studentId: p.id,
        questionId: item.id,
        score: seed.marks[i],
        scoreOrigin: 'auto',
        scoreState: 'decided',
      });
    }
  }
  return { ...w, s };
}

const putRules = async (w: { phaseUrl: string }, rules: PhaseRules) => {
  const res = await kit.call('PUT', `${w.phaseUrl}/rules`, admin.headers, rules);
  expect(res.statusCode, res.body).toBe(200);
};
const dryRun = async (w: { phaseUrl: string }) => {
  const res = await kit.call('POST', `${w.phaseUrl}/rules/dry-run`, admin.headers, {});
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as DryRun;
};
const names = (rows: Json[]) => rows.map((r) => r.givenName).sort();

const qualification = (q: Partial<NonNullable<PhaseRules['qualification']>>): PhaseRules => ({
  tieBreak: 'none',
  publication: 'none',
  qualification: {
    minTotal: null,
    placesPerCounty: 1,
    countyPlaces: [],
    extraPlaces: 0,
    unusedCountyPlacesToExtra: false,
    tiesAtCut: 'all',
    sectorsAsCounties: false,
    ...q,
  },
  awards: null,
});

describe('the presets', () => {
  it('are served with their names in ro and en, and a phase takes one as it is', async () => {
    const list = await kit.call('GET', PRESETS, admin.headers);
    expect(list.statusCode, list.body).toBe(200);
    const presets = list.json() as RulePreset[];
    expect(presets.map((p) => p.id)).toEqual(['county_to_national', 'national_prizes']);
    const county = presets[0] as RulePreset;
    expect(county.name).toEqual({
      ro: 'Etapa județeană, cu calificare la etapa națională',
      en: 'County phase, qualifying to the national one',
    });
    expect(county.rules.qualification).toMatchObject({
      minTotal: 14,
      placesPerCounty: 1,
      extraPlaces: 43,
      sectorsAsCounties: true,
    });
    const one = await kit.call('GET', `${PRESETS}/national_prizes`, admin.headers);
    expect(one.json()).toEqual(presets[1]);
    expect(codeOf(await kit.call('GET', `${PRESETS}/nope`, admin.headers))).toBe('NOT_FOUND');
    const student = await kit.person({ type: 'student', grade: 5 });
    expect((await kit.call('GET', PRESETS, student.headers)).statusCode).toBe(403);

    const w = await phaseWith([
      { name: 'Ana', county: 'Cluj', marks: [7, 7, 1] },
      { name: 'Bia', county: 'Cluj', marks: [7, 6, 1] },
    ]);
    await putRules(w, county.rules);
    const got = await kit.call('GET', `${w.phaseUrl}/rules`, admin.headers);
    expect(got.json()).toEqual(county.rules);
    const run = await dryRun(w);
    // 15 and 14 points: Cluj's place, then an extra place.
    expect(names(run.admitted)).toEqual(['Ana', 'Bia']);
    expect(run.canApply).toBe(true);
  });
});

describe("Bucharest's sectors", () => {
  const seeds = [
    { name: 'Ana', county: 'București', sector: 1, marks: [7, 7, 6] as [number, number, number] },
    { name: 'Bia', county: 'București', sector: 1, marks: [7, 7, 5] as [number, number, number] },
    { name: 'Cip', county: 'București', sector: 2, marks: [5, 5, 5] as [number, number, number] },
    { name: 'Dan', county: 'București', marks: [7, 7, 4] as [number, number, number] },
    { name: 'Eva', county: 'Cluj', marks: [3, 3, 3] as [number, number, number] },
  ];

  it("give each sector's best a place; the dry run names who has no sector", async () => {
    const w = await phaseWith(seeds);
    // București as one county with six places admits its best four, wherever they live.
    await putRules(w, qualification({ countyPlaces: [{ county: 'București', places: 6 }] }));
    expect(names((await dryRun(w)).admitted)).toEqual(['Ana', 'Bia', 'Cip', 'Dan', 'Eva']);

    await putRules(w, qualification({ sectorsAsCounties: true }));
    const run = await dryRun(w);
    expect(names(run.admitted)).toEqual(['Ana', 'Cip', 'Eva']);
    expect(run.admitted.find((r) => r.givenName === 'Cip')).toMatchObject({
      studentSector: 2,
      qualifiedBy: 'county',
    });
    expect(names(run.missingSectors)).toEqual(['Dan']);
  });

  it('refuse to apply while a sector is missing, unless it is accepted', async () => {
    const w = await phaseWith(seeds);
    await putRules(w, qualification({ sectorsAsCounties: true }));
    const run = await dryRun(w);
    const url = `${w.phaseUrl}/rules/apply`;
    const refused = await kit.call('POST', url, admin.headers, { fingerprint: run.fingerprint });
    expect(refused.statusCode).toBe(409);
    expect(codeOf(refused)).toBe('SECTOR_MISSING');
    expect((refused.json() as { error: { details: unknown } }).error.details).toEqual({
      students: [w.s.Dan?.id],
    });
    // Nothing was written.
    expect(names((await dryRun(w)).admitted)).toEqual(['Ana', 'Cip', 'Eva']);
    const applied = await kit.call('POST', url, admin.headers, {
      fingerprint: run.fingerprint,
      acceptMissingSectors: true,
    });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toMatchObject({ admitted: 3, rejected: 2 });

    // Once Dan's sector is set, the rules run without asking.
    const dan = w.s.Dan as Person;
    await t.database.db.update(users).set({ bucharestSector: 3 }).where(eq(users.id, dan.id));
    const again = await dryRun(w);
    expect(again.missingSectors).toEqual([]);
    expect(names(again.admitted)).toEqual(['Ana', 'Cip', 'Dan', 'Eva']);
    const done = await kit.call('POST', url, admin.headers, { fingerprint: again.fingerprint });
    expect(done.statusCode, done.body).toBe(200);
  });
});

describe("Bucharest's sectors in the ranking", () => {
  it('are shown, filtered and downloaded to staff, "necompletat" where missing', async () => {
    const w = await phaseWith([
      { name: 'Ana', county: 'București', sector: 1, marks: [7, 7, 6] },
      { name: 'Dan', county: 'București', marks: [7, 7, 4] },
      { name: 'Eva', county: 'Cluj', marks: [3, 3, 3] },
    ]);
    const filter = (where: object) =>
      encodeURIComponent(JSON.stringify({ where: { studentGrade: '', ...where } }));
    const all = await kit.call('GET', `${w.phaseUrl}/rankings?filter=${filter({})}`, admin.headers);
    expect(all.statusCode, all.body).toBe(200);
    expect((all.json() as Json[]).map((r) => [r.givenName, r.studentSector])).toEqual([
      ['Ana', 1],
      ['Dan', null],
      ['Eva', null],
    ]);
    const unset = await kit.call(
      'GET',
      `${w.phaseUrl}/rankings?filter=${filter({ studentCounty: 'București', studentSector: null })}`,
      admin.headers,
    );
    expect((unset.json() as Json[]).map((r) => r.givenName)).toEqual(['Dan']);
    const csv = await kit.call(
      'GET',
      `${w.phaseUrl}/rankings/download?filter=${filter({})}`,
      admin.headers,
    );
    const lines = csv.rawPayload.subarray(3).toString('utf8').trim().split('\r\n');
    expect(lines[0]?.endsWith(';Cod;Sector')).toBe(true);
    expect(lines.slice(1).map((l) => l.split(';').at(-1))).toEqual(['1', 'necompletat', '']);
  });
});

describe("ties at a cut broken by the problems' marks", () => {
  it('give the place to the higher mark on the last problem when the phase says so', async () => {
    const w = await phaseWith([
      { name: 'Ana', county: 'Cluj', marks: [7, 3, 4] },
      { name: 'Bia', county: 'Cluj', marks: [4, 4, 6] },
      { name: 'Cip', county: 'Cluj', marks: [3, 6, 5] },
    ]);
    // All three have 14: one Cluj place and one extra place.
    await putRules(w, qualification({ extraPlaces: 1 }));
    expect(names((await dryRun(w)).admitted)).toEqual(['Ana', 'Bia', 'Cip']);
    await putRules(w, { ...qualification({ extraPlaces: 1 }), tieBreak: 'items_from_last' });
    const run = await dryRun(w);
    expect(run.admitted.map((r) => [r.givenName, r.rank, r.qualifiedBy])).toEqual([
      ['Bia', 1, 'county'],
      ['Cip', 2, 'extra'],
    ]);
  });
});
