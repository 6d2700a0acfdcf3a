import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestWithItems } from '../../db/factories.js';
import { auditEvents, phasePrizes, testResults } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { codeOf, type Person, rankingsKit } from './rankings.fixtures.js';
import { RULE_PRESETS as PRESETS } from './rule-presets.js';

const RULE_PRESETS = {
  county_to_national: PRESETS.county_to_national.rules,
  national_prizes: PRESETS.national_prizes.rules,
};

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
type DryRun = {
  canApply: boolean;
  fingerprint: string;
  changeCount: number;
  changes: Json[];
  admitted: Json[];
  awarded: Json[];
  grades: Json[];
  isStoredRules: boolean;
  truncated: boolean;
};

/**
 * A county phase of grade 5 (its test's results complete): Cluj's best, Iași's best, and the
 * extra places down the ranking. Names say where each one should end up under the preset.
 */
async function countyPhase() {
  const w = await kit.world();
  const test = await makeTestWithItems(t.database.db, { phaseId: w.phase.id, grades: [5, 6] });
  const seeds = [
    ['Ana', 'Cluj', 27], // Cluj's place, Premiul I
    ['Bia', 'Cluj', 26], // extra place, Premiul I
    ['Cip', 'Iași', 15], // Iași's place though 15 only, Mențiune
    ['Dan', 'Cluj', 14], // extra place (43 + unused county places), Mențiune
    ['Eva', 'Olt', 13.5], // under the minimum: rejected, no prize
    ['Fil', null, 22.5], // no county: an extra place, Premiul II
  ] as const;
  const s: Record<string, Person> = {};
  for (const [name, county, total] of seeds) {
    s[name] = await kit.student(w, { givenName: name, familyName: 'Test', county, total });
    await t.database.db
      .insert(testResults)
      .values({ testId: test.test.id, studentId: s[name].id, phaseId: w.phase.id, points: total });
  }
  const absent = await kit.student(w, { givenName: 'Gil', familyName: 'Test', total: null });
  return { ...w, s, absent, test };
}

const putRules = (w: { phaseUrl: string }, who: Person, rules: unknown) =>
  kit.call('PUT', `${w.phaseUrl}/rules`, who.headers, rules);
const dryRun = async (w: { phaseUrl: string }, who: Person = admin, body?: unknown) => {
  const res = await kit.call('POST', `${w.phaseUrl}/rules/dry-run`, who.headers, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as DryRun;
};
const apply = (w: { phaseUrl: string }, fingerprint: string, who: Person = admin) =>
  kit.call('POST', `${w.phaseUrl}/rules/apply`, who.headers, { fingerprint });
const names = (rows: Json[]) => rows.map((r) => r.givenName);

describe('rules of a phase', () => {
  it('default to none, take a preset, refuse bad rules and people who may not set them', async () => {
    const w = await countyPhase();
    const got = await kit.call('GET', `${w.phaseUrl}/rules`, w.coordinator.headers);
    expect(got.json()).toEqual({
      tieBreak: 'none',
      publication: 'none',
      qualification: null,
      awards: null,
    });
    const put = await putRules(w, w.staff, RULE_PRESETS.county_to_national);
    expect(put.statusCode, put.body).toBe(200);
    expect((await kit.call('GET', `${w.phaseUrl}/rules`, admin.headers)).json()).toEqual(
      RULE_PRESETS.county_to_national,
    );
    const bad = await putRules(w, admin, {
      ...RULE_PRESETS.national_prizes,
      awards: { minTotal: -1, levels: [], tiesAtCut: 'maybe' },
    });
    expect(bad.statusCode).toBe(400);
    expect(codeOf(bad)).toBe('VALIDATION_FAILED');
    const coordinator = await putRules(w, w.coordinator, RULE_PRESETS.national_prizes);
    expect(coordinator.statusCode).toBe(403);
    expect(
      (await kit.call('POST', `${w.phaseUrl}/rules/dry-run`, w.coordinator.headers, {})).statusCode,
    ).toBe(403);
    expect((await putRules(w, w.outsider, RULE_PRESETS.national_prizes)).statusCode).toBe(404);
    const student = w.s.Ana as Person;
    expect((await kit.call('GET', `${w.phaseUrl}/rules`, student.headers)).statusCode).toBe(403);
    expect((await kit.call('GET', `${w.phaseUrl}/rules`, admin.headers)).json()).toEqual(
      RULE_PRESETS.county_to_national,
    );
    const audit = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, w.phase.id));
    expect(audit.filter((e) => e.action === 'phase.rules.set')).toHaveLength(1);
  });
});

describe('dry run and apply', () => {
  it('shows who would go on and win, applies only the differences, and again after an appeal', async () => {
    const w = await countyPhase();
    expect((await putRules(w, admin, RULE_PRESETS.county_to_national)).statusCode).toBe(200);
    const first = await dryRun(w);
    expect(first.canApply).toBe(true);
    expect(first.isStoredRules).toBe(true);
    expect(names(first.admitted)).toEqual(['Ana', 'Bia', 'Fil', 'Cip', 'Dan']);
    expect(first.admitted.map((r) => r.qualifiedBy)).toEqual([
      'county',
      'extra',
      'extra',
      'county',
      'extra',
    ]);
    expect(first.awarded.map((r) => `${r.givenName}:${r.prize}`)).toEqual([
      'Ana:first',
      'Bia:first',
      'Fil:second',
      'Cip:mention',
      'Dan:mention',
    ]);
    expect(first.grades).toEqual([
      {
        grade: 5,
        participants: 7,
        ranked: 6,
        eligible: 5,
        countyPlaces: 47,
        countyTaken: 2,
        extraPlaces: 43 + 45,
        extraTaken: 3,
        admitted: 5,
        cutTotal: 14,
        prizes: { first: 2, second: 1, third: 0, mention: 2 },
      },
    ]);
    // Everyone's decision is new: 5 admitted, 2 rejected (one under the minimum, one absent).
    expect(first.changeCount).toBe(7);
    expect(first.changes.find((c) => c.givenName === 'Gil')).toMatchObject({
      statusBefore: null,
      statusAfter: 'rejected',
      rank: null,
      total: null,
    });

    const applied = await apply(w, first.fingerprint, w.staff);
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.json()).toEqual({
      changed: 7,
      admitted: 5,
      rejected: 2,
      prizesSet: 5,
      prizesRemoved: 0,
    });
    expect(await kit.decision(w.phase.id, w.s.Eva?.id ?? '')).toBe('rejected');
    expect(await kit.decision(w.phase.id, w.s.Dan?.id ?? '')).toBe('admitted');
    const prize = async (id: string) =>
      (
        await t.database.db
          .select()
          .from(phasePrizes)
          .where(and(eq(phasePrizes.phaseId, w.phase.id), eq(phasePrizes.studentId, id)))
      )[0]?.prize ?? null;
    expect(await prize(w.s.Fil?.id ?? '')).toBe('second');
    const ranking = (
      await kit.call('GET', `${w.phaseUrl}/rankings`, admin.headers)
    ).json() as Json[];
    expect(ranking.map((r) => `${r.givenName}:${r.status}:${r.prize}`)).toContain(
      'Fil:admitted:second',
    );

    // Nothing left to change; applying the same outcome again changes nothing.
    const same = await dryRun(w);
    expect(same.changeCount).toBe(0);
    expect((await apply(w, same.fingerprint)).json()).toMatchObject({ changed: 0 });

    const status = async () => {
      const res = await kit.call('GET', `${w.phaseUrl}/rules/status`, w.staff.headers);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { appliedAt: string | null; outOfDate: boolean; changeCount: number };
    };
    expect(await status()).toMatchObject({ outOfDate: false, changeCount: 0 });
    expect((await status()).appliedAt).not.toBeNull();

    // An appeal lifts Eva over the minimum: only she changes.
    await kit.setTotal(w.phase.id, w.s.Eva?.id ?? '', 16);
    // The rules page can say so before anyone runs the dry run.
    expect(await status()).toMatchObject({ outOfDate: true, changeCount: 1 });
    const stale = await apply(w, same.fingerprint);
    expect(stale.statusCode).toBe(409);
    expect(codeOf(stale)).toBe('RULES_OUTCOME_CHANGED');
    expect(await kit.decision(w.phase.id, w.s.Eva?.id ?? '')).toBe('rejected');
    const again = await dryRun(w);
    expect(again.changes).toEqual([
      {
        studentId: w.s.Eva?.id,
        familyName: 'Test',
        givenName: 'Eva',
        studentCounty: 'Olt',
        studentSector: null,
        studentGrade: 5,
        rank: 4,
        total: 16,
        statusBefore: 'rejected',
        statusAfter: 'admitted',
        prizeBefore: null,
        prizeAfter: 'mention',
      },
    ]);
    expect((await apply(w, again.fingerprint)).json()).toEqual({
      changed: 1,
      admitted: 1,
      rejected: 0,
      prizesSet: 1,
      prizesRemoved: 0,
    });
    expect(await kit.decision(w.phase.id, w.s.Eva?.id ?? '')).toBe('admitted');
    expect(await status()).toMatchObject({ outOfDate: false, changeCount: 0 });
    // A coordinator does not apply rules, so is not told; an outsider finds no phase.
    const coord = await kit.call('GET', `${w.phaseUrl}/rules/status`, w.coordinator.headers);
    expect(coord.statusCode).toBe(403);
    expect(
      (await kit.call('GET', `${w.phaseUrl}/rules/status`, w.outsider.headers)).statusCode,
    ).toBe(404);
    const audit = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, w.phase.id));
    expect(audit.filter((e) => e.action === 'phase.rules.apply')).toHaveLength(3);
    expect(
      audit.filter((e) => e.action === 'phase.results.set' && e.reason === 'rules'),
    ).toHaveLength(3);
  });

  it('tries unsaved rules without storing them; only stored rules can be applied', async () => {
    const w = await countyPhase();
    const tried = await dryRun(w, admin, { rules: RULE_PRESETS.national_prizes });
    expect(tried.isStoredRules).toBe(false);
    expect(tried.canApply).toBe(false);
    expect(tried.awarded.map((r) => `${r.givenName}:${r.prize}`)).toEqual([
      'Ana:first',
      'Bia:second',
      'Fil:third',
      'Cip:mention',
    ]);
    expect((await kit.call('GET', `${w.phaseUrl}/rules`, admin.headers)).json()).toMatchObject({
      awards: null,
    });
    const none = await apply(w, tried.fingerprint);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({
      error: { code: 'CLIENT_ERROR', details: { rules: ['required'] } },
    });
  });

  it('refuses while results are incomplete, and once the phase is closed', async () => {
    const w = await countyPhase();
    await putRules(w, admin, RULE_PRESETS.county_to_national);
    await t.database.db
      .update(testResults)
      .set({ awaitingItems: 1 })
      .where(
        and(eq(testResults.testId, w.test.test.id), eq(testResults.studentId, w.s.Ana?.id ?? '')),
      );
    const waiting = await dryRun(w);
    expect(waiting.canApply).toBe(false);
    const refused = await apply(w, waiting.fingerprint);
    expect(refused.statusCode).toBe(409);
    expect(codeOf(refused)).toBe('RESULTS_INCOMPLETE');
    expect(await kit.decision(w.phase.id, w.s.Ana?.id ?? '')).toBe(null);
    await t.database.db
      .update(testResults)
      .set({ awaitingItems: 0 })
      .where(eq(testResults.testId, w.test.test.id));

    // The last phase of the edition closes when asked, admitting nobody; then rules stay.
    const close = await kit.examCall('PUT', `${w.phaseUrl}/finish`, admin.headers, {
      lastPhase: true,
    });
    expect(close.statusCode, close.body).toBe(200);
    const ready = await dryRun(w);
    expect(ready.canApply).toBe(false);
    const closed = await apply(w, ready.fingerprint);
    expect(codeOf(closed)).toBe('PHASE_CLOSED');
    const changeRules = await putRules(w, admin, RULE_PRESETS.national_prizes);
    expect(codeOf(changeRules)).toBe('PHASE_CLOSED');
    const publish = await putRules(w, admin, {
      ...RULE_PRESETS.county_to_national,
      publication: 'codes',
    });
    expect(publish.statusCode, publish.body).toBe(200);
    const summary = await kit.call('GET', `${w.phaseUrl}/rankings/summary`, admin.headers);
    expect(summary.json()).toMatchObject({
      phaseState: 'closed',
      scoreState: 'final',
      publication: 'codes',
    });
  });
});
