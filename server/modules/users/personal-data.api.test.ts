import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answers,
  auditEvents,
  files,
  phaseResults,
  phases,
  sessions,
  testResults,
} from '../../db/schema.js';
import { createStorage } from '../../lib/files/storage.js';
import { buildTestApp, errorCode, type TestApp } from '../../test/app.js';
import { fixedClock, type Signed } from '../../test/competition.js';
import { populatedWorld, type World } from '../../test/world.js';

// A person's data for a data-subject request, and anonymising, on the access matrix's world:
// student A has an enrolment, a finished online attempt with an open answer (its canary
// text), a scanned page of the hybrid test marked by two reviewers and appealed, a score and
// a sign-in.

const API = '/api/v1/user-mgmt';
const APPEAL_REASON = 'motiv-contestatie-A-5d2b';
const clock = fixedClock();
let t: TestApp;
let w: World;
/** The hybrid question's second grading teacher, named so that an export would show them. */
let secondReviewer: Signed;

/** Two reviewers mark A's page (4 and 4.5: 4.25 on average), then A appeals it. */
async function markAndAppealHybrid() {
  const call = async (method: string, url: string, who: Signed, payload?: object) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url: `/api/v1${url}`,
      headers: who.headers,
      ...(payload ? { payload } : {}),
    });
    if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.body}`);
    return res.json() as unknown;
  };
  const u = await t.createUser({
    type: 'teacher',
    givenName: 'Corector',
    familyName: 'Secretescu',
  });
  secondReviewer = { id: u.id, email: u.email, headers: await t.login(u.email, u.password) };
  const phase = w.phasePath(w.hybrid.id);
  await call('POST', `/resource-mgmt${phase}/items/${w.hybridItemId}/teachers`, w.examAdmin, {
    mediatorTeacher: w.mediator.id,
    gradingTeachers: [secondReviewer.id],
  });
  await call('PUT', `/exam-mgmt${phase}/review`, w.examAdmin);
  for (const [who, score] of [
    [w.reviewer, 4],
    [secondReviewer, 4.5],
  ] as const) {
    const [entry] = (await call('GET', `/test-review${phase}/reviews`, who)) as { _id: string }[];
    await call('PUT', `/test-review${phase}/reviews/${entry?._id}`, who, { reviewerScore: score });
  }
  const now = clock.now().getTime();
  await t.database.db
    .update(phases)
    .set({ appealStartDate: new Date(now - 3_600_000), appealEndDate: new Date(now + 86_400_000) })
    .where(eq(phases.id, w.hybrid.id));
  await call(
    'PUT',
    `/test-review/tests/${w.hybridTest.id}/items/${w.hybridItemId}/appeal`,
    w.studentA,
    { reason: APPEAL_REASON },
  );
}

beforeAll(async () => {
  t = await buildTestApp({ clock });
  w = await populatedWorld(t);
  await markAndAppealHybrid();
  // A change of A's name, so that the audit has personal values on A's account.
  const res = await t.app.inject({
    method: 'PATCH',
    url: `${API}/users/${encodeURIComponent(w.studentA.email)}`,
    headers: w.studentA.headers,
    payload: { givenName: 'Ilinca-Maria' },
  });
  if (res.statusCode !== 200) throw new Error(res.body);
}, 180_000);
afterAll(async () => {
  await t?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

describe('GET /users/{id}/personal-data and /my-personal-data', () => {
  it('gives an admin everything Podium keeps about a student, module by module', async () => {
    const res = await get(`${API}/users/${w.studentA.id}/personal-data`, w.admin.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="date-personale.json"');
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.json();
    expect(data.format).toBe('podium-personal-data/1');
    expect(data.profile).toMatchObject({ email: w.studentA.email, givenName: 'Ilinca-Maria' });
    expect(data.enrolments.editions).toEqual([
      expect.objectContaining({ editionId: w.edition.id, grade: 5 }),
    ]);
    expect(data.enrolments.phases.length).toBeGreaterThanOrEqual(2);
    expect(data.attempts).toEqual([
      expect.objectContaining({ testId: w.onlineTest.id, state: 'finished' }),
    ]);
    const open = data.results.answers.find(
      (a: { questionId: string }) => a.questionId === w.openItemId,
    );
    expect(open).toMatchObject({ answer: w.canary.studentA, questionType: 'open' });
    expect(data.results.tests.length).toBeGreaterThanOrEqual(1);
    expect(data.results.phases.length).toBeGreaterThanOrEqual(1);
    expect(data.answerFiles).toEqual([
      expect.objectContaining({ id: w.answerFileId, uploadedByThePerson: true }),
    ]);
    expect(data.signIn.sessions.length).toBeGreaterThanOrEqual(1);
    expect(data.rankings).toEqual({ ranks: expect.any(Array), prizes: [], closeStandings: [] });
    const rename = data.auditEvents.find(
      (e: { action: string }) => e.action === 'user.profile.update',
    );
    expect(rename).toMatchObject({ byThePerson: true, after: { givenName: 'Ilinca-Maria' } });
    // Marking and appeals: the final score and where it came from, the appeal as filed.
    expect(data.reviews.markedAnswers).toEqual([
      expect.objectContaining({
        testId: w.hybridTest.id,
        questionId: w.hybridItemId,
        item: 1,
        state: 'final',
        finalScore: 4.25,
        finalScoreFrom: 'average',
      }),
    ]);
    expect(data.reviews.appeals).toEqual([
      expect.objectContaining({
        testId: w.hybridTest.id,
        questionId: w.hybridItemId,
        reason: APPEAL_REASON,
        state: 'pending',
        originalScore: 4.25,
        decidedBy: 'reviewers',
      }),
    ]);
    // Never who marked or mediates: not in the reviews part, nor anywhere in the export.
    const reviewers = [w.reviewer, secondReviewer, w.mediator];
    const reviewsPart = JSON.stringify(data.reviews);
    for (const r of reviewers) {
      expect(reviewsPart).not.toContain(r.id);
      expect(res.body).not.toContain(r.email);
    }
    expect(res.body).not.toContain('Corector');
    expect(res.body).not.toContain('Secretescu');
    // Another student's data, and secrets, are not in it.
    expect(res.body).not.toContain(w.canary.studentB);
    expect(res.body).not.toContain(w.studentB.email);
    expect(res.body).not.toContain('$argon2');
    expect(res.body).not.toContain('tokenHash');
  });

  it('puts the answer pages in the ZIP beside the JSON', async () => {
    const res = await get(
      `${API}/users/${w.studentA.id}/personal-data?format=zip`,
      w.admin.headers,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe('attachment; filename="date-personale.zip"');
    const zip = res.rawPayload;
    expect(zip.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    expect(zip.includes(Buffer.from('date-personale.json'))).toBe(true);
    expect(zip.includes(Buffer.from(`answerFiles-${w.answerFileId}-`))).toBe(true);
    // The page as stored: its metadata stripped on upload.
    const [page] = await t.database.db.select().from(files).where(eq(files.id, w.answerFileId));
    const stored = await createStorage(t.config).get(page?.storageKey ?? '');
    expect(stored.subarray(1, 4).toString()).toBe('PNG');
    expect(zip.includes(stored)).toBe(true);
    expect(zip.includes(Buffer.from(w.canary.studentA))).toBe(true);
  });

  it('lets everyone download their own, and audits each export', async () => {
    const res = await get(`${API}/my-personal-data`, w.studentA.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().profile.email).toBe(w.studentA.email);
    const teacher = await get(`${API}/my-personal-data`, w.coordinator.headers);
    expect(teacher.json().profile.email).toBe(w.coordinator.email);
    expect(teacher.body).not.toContain(w.canary.studentA);
    const exports = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'user.export'), eq(auditEvents.entityId, w.studentA.id)));
    expect(exports.map((e) => e.actorId)).toEqual(
      expect.arrayContaining([w.admin.id, w.studentA.id]),
    );
  });

  it('refuses another person’s data to all but admins, and says what is wrong', async () => {
    const url = `${API}/users/${w.studentA.id}/personal-data`;
    expect((await get(url, w.studentB.headers)).statusCode).toBe(403);
    expect((await get(url, w.coordinator.headers)).statusCode).toBe(403);
    expect((await get(url, w.studentA.headers)).statusCode).toBe(403);
    expect((await get(url)).statusCode).toBe(401);
    const nobody = await get(
      `${API}/users/0190a000-0000-7000-8000-0000000000ff/personal-data`,
      w.admin.headers,
    );
    expect(nobody.statusCode).toBe(404);
    const badFormat = await get(`${url}?format=pdf`, w.admin.headers);
    expect(badFormat.statusCode).toBe(400);
    expect(errorCode(badFormat)).toBe('VALIDATION_FAILED');
  });
});

describe('POST /users/{id}/anonymise', () => {
  it('removes what names the student or is in their words, and keeps scores for statistics', async () => {
    const db = t.database.db;
    const storage = createStorage(t.config);
    const [page] = await db.select().from(files).where(eq(files.id, w.answerFileId));
    expect(page).toBeDefined();
    expect((await storage.get(page?.storageKey ?? '')).length).toBe(page?.size);
    const totalsBefore = await db
      .select()
      .from(phaseResults)
      .where(eq(phaseResults.studentId, w.studentA.id));
    const testsBefore = await db
      .select()
      .from(testResults)
      .where(eq(testResults.studentId, w.studentA.id));
    const scoresBefore = await db
      .select({ q: answers.questionId, score: answers.score, state: answers.scoreState })
      .from(answers)
      .where(eq(answers.studentId, w.studentA.id))
      .orderBy(answers.questionId);

    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/users/${w.studentA.id}/anonymise`,
      headers: w.admin.headers,
    });
    expect(res.statusCode).toBe(200);

    // The open answer's text and the scanned page are gone, the page's bytes too.
    const [openAnswer] = await db
      .select()
      .from(answers)
      .where(and(eq(answers.studentId, w.studentA.id), eq(answers.questionId, w.openItemId)));
    expect(openAnswer?.submittedAnswer).toBeNull();
    const pages = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(answers)
      .where(and(eq(answers.studentId, w.studentA.id), sql`cardinality(${answers.fileIds}) > 0`));
    expect(pages[0]?.n).toBe(0);
    expect(await db.select().from(files).where(eq(files.id, w.answerFileId))).toEqual([]);
    await expect(storage.get(page?.storageKey ?? '')).rejects.toThrow();
    // The statement image a teacher uploaded stays.
    expect(await db.select().from(files).where(eq(files.id, w.fileId))).toHaveLength(1);
    // Sign-in records are gone.
    expect(await db.select().from(sessions).where(eq(sessions.userId, w.studentA.id))).toEqual([]);
    // Scores, results and totals are as they were.
    expect(
      await db
        .select({ q: answers.questionId, score: answers.score, state: answers.scoreState })
        .from(answers)
        .where(eq(answers.studentId, w.studentA.id))
        .orderBy(answers.questionId),
    ).toEqual(scoresBefore);
    expect(
      await db.select().from(testResults).where(eq(testResults.studentId, w.studentA.id)),
    ).toEqual(testsBefore);
    expect(
      await db.select().from(phaseResults).where(eq(phaseResults.studentId, w.studentA.id)),
    ).toEqual(totalsBefore);

    // The audit events on the account keep who did what when, without the values.
    const onAccount = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityType, 'user'), eq(auditEvents.entityId, w.studentA.id)));
    const rename = onAccount.find((e) => e.action === 'user.profile.update');
    expect(rename).toMatchObject({ actorId: w.studentA.id, after: { givenName: 'anonim' } });
    expect(JSON.stringify(onAccount)).not.toContain('Ilinca-Maria');
    // The appeal's reason the student wrote is gone from the trail too; the event stays.
    const byStudent = await db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.actorId, w.studentA.id));
    expect(byStudent.find((e) => e.action === 'appeal.filed')).toMatchObject({ reason: 'anonim' });
    const trail = await db.select().from(auditEvents);
    expect(JSON.stringify(trail)).not.toContain(APPEAL_REASON);

    // What an export shows now names nobody.
    const after = await get(`${API}/users/${w.studentA.id}/personal-data`, w.admin.headers);
    expect(after.statusCode).toBe(200);
    for (const gone of [w.studentA.email, w.canary.studentA, 'Ilinca-Maria', APPEAL_REASON]) {
      expect(after.body).not.toContain(gone);
    }
  });

  it('leaves audit events append-only outside anonymising', async () => {
    const db = t.database.db;
    const onA = sql`entity_type = 'user' and entity_id = ${w.studentA.id}`;
    const change = db.execute(sql`update audit_events set after = '{}'::jsonb where ${onA}`);
    await expect(change).rejects.toThrow();
    // Naming one person lets through only the values of events on that person's account.
    const other = db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('podium.anonymising', ${w.studentB.id}, true)`);
      await tx.execute(sql`update audit_events set after = '{}'::jsonb where ${onA}`);
    });
    await expect(other).rejects.toThrow();
    const action = db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('podium.anonymising', ${w.studentA.id}, true)`);
      await tx.execute(sql`update audit_events set action = 'x' where ${onA}`);
    });
    await expect(action).rejects.toThrow();
    // The reason may change only on events the named person did, and then nothing else.
    const appeal = sql`actor_id = ${w.studentA.id} and action = 'appeal.filed'`;
    const [filed] = await db.select().from(auditEvents).where(appeal);
    expect(filed).toBeDefined();
    const othersReason = db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('podium.anonymising', ${w.studentB.id}, true)`);
      await tx.execute(sql`update audit_events set reason = 'x' where ${appeal}`);
    });
    await expect(othersReason).rejects.toThrow();
    const reasonAndValues = db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('podium.anonymising', ${w.studentA.id}, true)`);
      await tx.execute(
        sql`update audit_events set reason = 'x', before = '{}'::jsonb where ${appeal}`,
      );
    });
    await expect(reasonAndValues).rejects.toThrow();
    const removal = db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('podium.anonymising', ${w.studentA.id}, true)`);
      await tx.execute(sql`delete from audit_events where ${onA}`);
    });
    await expect(removal).rejects.toThrow();
  });
});
