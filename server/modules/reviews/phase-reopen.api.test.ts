import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DiplomaReissued,
  DiplomaVerification,
  StaleDiploma,
} from '../../../shared/schemas/diplomas.js';
import type { PhaseClosed, PhaseReopenResult } from '../../../shared/schemas/phase-reopen.js';
import type { ContestationEntry } from '../../../shared/schemas/reviews.js';
import {
  auditEvents,
  diplomas,
  mailOutbox,
  phaseStudents,
  phases,
  reviewEntries,
  reviewMarks,
} from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { fixedClock, type Signed } from '../../test/competition.js';
import { RULE_PRESETS } from '../rankings/index.js';
import { reviewWorld } from './reviews.fixtures.js';

// A closed phase reopens only explicitly, with a written reason, audited; it then takes the
// writes a closed phase refuses, and closing it again applies its rules again and says who
// stands differently from the previous close (told by mail; printed diplomas named).

const clock = fixedClock();
let t: TestApp;
let w: Awaited<ReturnType<typeof reviewWorld>>;

beforeAll(async () => {
  t = await buildTestApp({ clock });
  w = await reviewWorld(t);
  clock.set('2026-11-24T09:00:00.000Z');
  // The hybrid phase is the edition's last; its appeal window is open by its dates.
  await w.setPhase(w.hybrid.id, {
    appealStartDate: new Date('2026-11-24T08:00:00Z'),
    appealEndDate: new Date('2026-11-30T12:00:00Z'),
  });
}, 300_000);
afterAll(async () => {
  await t?.close();
});

const codeOf = (res: LightMyRequestResponse) =>
  (res.json() as { error?: { code?: string } }).error?.code;
const ok = <T>(res: LightMyRequestResponse): T => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
};
const phaseUrl = (phaseId: string) => `/exam-mgmt${w.phasePath(phaseId)}`;
const reopen = (phaseId: string, who: Signed, body: unknown) =>
  w.call('PUT', `${phaseUrl(phaseId)}/reopen`, who.headers, body);
const finish = () =>
  w.call('PUT', `${phaseUrl(w.hybrid.id)}/finish`, w.examAdmin.headers, { lastPhase: true });
const base = () => w.reviewBase(w.hybrid.id);
const phaseIds = () => ({ examId: w.exam.id, editionId: w.edition.id, phaseId: w.hybrid.id });
const staleUrl = () => `/diploma-generator/stale?${new URLSearchParams(phaseIds())}`;
const verify = (code: string) => w.call('GET', `/diploma-generator/verify/${code}`, {});
const signedOf = (id: string) => [w.r1, w.r2, w.r3, w.r4].find((p) => p.id === id) as Signed;
const markersOf = async (parentId: string) =>
  (await t.database.db.select().from(reviewMarks).where(eq(reviewMarks.parentId, parentId)))
    .sort((a, b) => a.slot - b.slot)
    .map((m) => signedOf(m.reviewerId));
const auditsOf = (action: string) =>
  t.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.entityId, w.hybrid.id), eq(auditEvents.action, action)));

/** Both markers of the student's hybrid answer give `score`. */
async function mark(studentId: string, score: number) {
  const [entry] = await t.database.db
    .select()
    .from(reviewEntries)
    .where(eq(reviewEntries.answerId, w.answerIds[studentId] ?? ''));
  if (!entry) throw new Error('no entry');
  for (const who of await markersOf(entry.id)) {
    ok(await w.call('PUT', `${base()}/reviews/${entry.id}`, who.headers, { reviewerScore: score }));
  }
}

describe('the hybrid phase, marked and awarded', () => {
  it('is not reopened while open (PHASE_NOT_CLOSED), then closes with nobody changed', async () => {
    ok(
      await w.call(
        'POST',
        `/resource-mgmt${w.phasePath(w.hybrid.id)}/items/${w.hybridItemId}/teachers`,
        w.examAdmin.headers,
        { mediatorTeacher: w.mediator.id, gradingTeachers: [w.r1.id, w.r2.id, w.r3.id, w.r4.id] },
      ),
    );
    ok(await w.call('PUT', `${phaseUrl(w.hybrid.id)}/review`, w.examAdmin.headers));
    await mark(w.ana.id, 8);
    await mark(w.bogdan.id, 6);
    await mark(w.carmen.id, 4);
    const rulesUrl = `/ranking-service${w.phasePath(w.hybrid.id)}/rules`;
    ok(await w.call('PUT', rulesUrl, w.examAdmin.headers, RULE_PRESETS.national_prizes.rules));
    const dry = ok<{ fingerprint: string }>(
      await w.call('POST', `${rulesUrl}/dry-run`, w.examAdmin.headers, {}),
    );
    const { fingerprint } = dry;
    ok(await w.call('POST', `${rulesUrl}/apply`, w.examAdmin.headers, { fingerprint }));

    const open = await reopen(w.hybrid.id, w.examAdmin, { reason: 'Corectură' });
    expect([open.statusCode, codeOf(open)]).toEqual([409, 'PHASE_NOT_CLOSED']);
    expect(await auditsOf('phase.reopen')).toHaveLength(0);

    const closed = ok<PhaseClosed>(await finish());
    expect(closed).toMatchObject({ state: 'closed', changes: [], diplomas: [] });
    // Carmen's diploma (Premiul III) is printed while the phase is closed.
    const diploma = await w.call('POST', '/diploma-generator/diplomas', w.carmen.headers, {
      examId: w.exam.id,
      editionId: w.edition.id,
      phaseId: w.hybrid.id,
      userId: w.carmen.id,
    });
    expect(diploma.statusCode, diploma.body).toBe(200);
    // And her teacher's, which lists her with that prize.
    const teachers = await w.call('POST', '/diploma-generator/diplomas', w.examAdmin.headers, {
      ...phaseIds(),
      userId: w.otherTeacher.id,
    });
    expect(teachers.statusCode, teachers.body).toBe(200);
  });
});

describe('reopening a closed phase', () => {
  it('needs a reason and the right to close it; refused ones change nothing', async () => {
    for (const body of [{}, { reason: '   ' }, { reason: 'x'.repeat(1001) }]) {
      const res = await reopen(w.hybrid.id, w.examAdmin, body);
      expect([res.statusCode, codeOf(res)]).toEqual([400, 'VALIDATION_FAILED']);
    }
    const missing = await reopen(w.hybrid.id, w.examAdmin, {});
    expect(JSON.stringify(missing.json())).toContain('reason');
    const marker = await reopen(w.hybrid.id, w.r1, { reason: 'Nu am dreptul' });
    expect([403, 404]).toContain(marker.statusCode);
    const coordinator = await reopen(w.hybrid.id, w.coordinator, { reason: 'Nici eu' });
    expect([403, 404]).toContain(coordinator.statusCode);
    const [phase] = await t.database.db.select().from(phases).where(eq(phases.id, w.hybrid.id));
    expect(phase?.state).toBe('closed');
    expect(await auditsOf('phase.reopen')).toHaveLength(0);
    const appeal = await w.call(
      'PUT',
      `/test-review/tests/${w.hybridTest.id}/items/${w.hybridItemId}/appeal`,
      w.carmen.headers,
      { reason: 'Încă închisă.' },
    );
    expect(codeOf(appeal)).toBe('PHASE_CLOSED');
  });

  it('opens it with the reason audited (who, when, why) and says what it allows', async () => {
    const res = ok<PhaseReopenResult>(
      await reopen(w.hybrid.id, w.examAdmin, { reason: '  Punctaj greșit la Carmen.  ' }),
    );
    expect(res.state).toBe('open');
    expect(res.closedAt).toBeNull();
    expect(res.reopen).toMatchObject({
      reason: 'Punctaj greșit la Carmen.',
      reopenedBy: w.examAdmin.id,
      reopenedAt: '2026-11-24T09:00:00.000Z',
      keptStandings: 3,
    });
    expect(res.reopen.allows).toEqual(expect.arrayContaining(['marks', 'appeals', 'rules']));
    const [event] = await auditsOf('phase.reopen');
    expect(event).toMatchObject({
      actorId: w.examAdmin.id,
      reason: 'Punctaj greșit la Carmen.',
      before: { state: 'closed' },
      after: { state: 'open', keptStandings: 3 },
    });
    expect(event?.at).toBeInstanceOf(Date);
  });

  it('takes the writes a closed phase refuses: an appeal and its marks change a total', async () => {
    ok(
      await w.call(
        'PUT',
        `/test-review/tests/${w.hybridTest.id}/items/${w.hybridItemId}/appeal`,
        w.carmen.headers,
        { reason: 'Am rezolvat tot.' },
      ),
    );
    const appeals = ok<ContestationEntry[]>(
      await w.call('GET', `${base()}/appeals?filter=${encodeURIComponent('{}')}`, w.staff.headers),
    );
    const appeal = appeals.find((a) => a.answerId === w.answerIds[w.carmen.id]);
    if (!appeal) throw new Error('no appeal');
    const markers = await markersOf(appeal._id);
    expect(markers).toHaveLength(2);
    for (const who of markers) {
      ok(
        await w.call('PUT', `${base()}/appeals/${appeal._id}`, who.headers, { reviewerScore: 10 }),
      );
    }
  });
});

describe('closing a reopened phase again', () => {
  it('applies the rules again and lists who changes, with their printed diplomas', async () => {
    const mailsBefore = (await t.database.db.select().from(mailOutbox)).length;
    const closed = ok<PhaseClosed>(await finish());
    expect(closed.state).toBe('closed');
    const byId = new Map(closed.changes.map((c) => [c.studentId, c]));
    expect(closed.changes).toHaveLength(3);
    // Carmen's appeal took her from 4 to 10 points: first place and Premiul I; the others
    // each move one place and one prize down.
    expect(byId.get(w.carmen.id)).toMatchObject({
      before: { total: 4, rank: 3, prize: 'third' },
      after: { total: 10, rank: 1, prize: 'first' },
    });
    expect(byId.get(w.ana.id)).toMatchObject({
      before: { total: 8, rank: 1, prize: 'first' },
      after: { total: 8, rank: 2, prize: 'second' },
    });
    expect(byId.get(w.bogdan.id)).toMatchObject({
      before: { total: 6, rank: 2, prize: 'second' },
      after: { total: 6, rank: 3, prize: 'third' },
    });
    // The printed diploma is named, and keeps what it printed.
    const [printed] = await t.database.db
      .select()
      .from(diplomas)
      .where(eq(diplomas.userId, w.carmen.id));
    expect(closed.diplomas).toEqual([
      { code: printed?.code, studentId: w.carmen.id, prize: 'third' },
    ]);
    expect(printed?.prize).toBe('third');
    // The rules were applied again, audited, and the close says who changes.
    const applied = await auditsOf('phase.rules.apply');
    expect(applied.map((a) => a.reason)).toContain('phase.close.again');
    const closes = await auditsOf('phase.close');
    const last = closes.at(-1)?.after as { changes: { studentId: string }[] };
    expect(last.changes.map((c) => c.studentId).sort()).toEqual(
      [w.ana.id, w.bogdan.id, w.carmen.id].sort(),
    );
    const mails = (await t.database.db.select().from(mailOutbox))
      .slice(mailsBefore)
      .filter((m) => m.template === 'result-changed');
    expect(mails.map((m) => m.userId).sort()).toEqual([w.ana.id, w.bogdan.id, w.carmen.id].sort());
    const again = ok<PhaseClosed>(await finish());
    expect(again.changes).toEqual([]);
  });
});

describe('diplomas printed before the result changed', () => {
  it('are flagged for the organisers; a reissue replaces them, and the old code says so', async () => {
    const [printed] = await t.database.db
      .select()
      .from(diplomas)
      .where(eq(diplomas.userId, w.carmen.id));
    if (!printed) throw new Error('no diploma');
    const oldCode = `${printed.code.slice(0, 4)}-${printed.code.slice(4, 8)}-${printed.code.slice(8)}`;
    // Carmen's own diploma and her teacher's (listing her Premiul III) are flagged; Ana's and
    // Bogdan's results changed too, but nothing of theirs was printed.
    const stale = ok<StaleDiploma[]>(await w.call('GET', staleUrl(), w.examAdmin.headers));
    expect(stale.map((d) => [d.userId, d.kind, d.prize])).toEqual(
      expect.arrayContaining([
        [w.carmen.id, 'student', 'third'],
        [w.otherTeacher.id, 'teacher', null],
      ]),
    );
    expect(stale).toHaveLength(2);
    expect(stale.find((d) => d.kind === 'student')?.code).toBe(oldCode);
    // Only those who see the whole competition see the list and reissue.
    for (const who of [w.carmen, w.otherTeacher, w.r1]) {
      expect((await w.call('GET', staleUrl(), who.headers)).statusCode).toBe(403);
      const res = await w.call('POST', '/diploma-generator/reissue', who.headers, {
        ...phaseIds(),
        userId: w.carmen.id,
      });
      expect(res.statusCode).toBe(403);
    }
    expect(ok<DiplomaVerification>(await verify(oldCode)).replacedAt).toBeNull();

    const reissued = ok<DiplomaReissued>(
      await w.call('POST', '/diploma-generator/reissue', w.examAdmin.headers, {
        ...phaseIds(),
        userId: w.carmen.id,
      }),
    );
    expect(reissued).toMatchObject({ replaces: oldCode, userId: w.carmen.id, prize: 'first' });
    expect(reissued.code).not.toBe(oldCode);
    // The old code is still confirmed as printed, and says it was replaced.
    const old = ok<DiplomaVerification>(await verify(oldCode));
    expect(old).toMatchObject({ prize: 'third', replacedAt: '2026-11-24T09:00:00.000Z' });
    const fresh = ok<DiplomaVerification>(await verify(reissued.code));
    expect(fresh).toMatchObject({ prize: 'first', replacedAt: null });
    // Printing Carmen's diploma now prints the new one.
    const pdf = await w.call('POST', '/diploma-generator/diplomas', w.carmen.headers, {
      ...phaseIds(),
      userId: w.carmen.id,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-disposition']).toContain(`diploma-${reissued.code}.pdf`);
    const [audit] = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'diploma.reissue'));
    expect(audit).toMatchObject({
      actorId: w.examAdmin.id,
      before: { code: printed.code, prize: 'third' },
      after: { prize: 'first', replaces: printed.code },
    });
    const left = ok<StaleDiploma[]>(await w.call('GET', staleUrl(), w.examAdmin.headers));
    expect(left.map((d) => d.userId)).toEqual([w.otherTeacher.id]);

    // Reissuing a diploma in force that is not out of date, or one never printed: refused,
    // nothing changes.
    const rows = (await t.database.db.select().from(diplomas)).length;
    const again = await w.call('POST', '/diploma-generator/reissue', w.examAdmin.headers, {
      ...phaseIds(),
      userId: w.carmen.id,
    });
    expect([again.statusCode, codeOf(again)]).toEqual([409, 'DIPLOMA_NOT_STALE']);
    const none = await w.call('POST', '/diploma-generator/reissue', w.examAdmin.headers, {
      ...phaseIds(),
      userId: w.ana.id,
    });
    expect(none.statusCode).toBe(404);
    const bad = await w.call('POST', '/diploma-generator/reissue', w.examAdmin.headers, {
      ...phaseIds(),
      userId: 'nu-e-un-id',
    });
    expect([bad.statusCode, codeOf(bad)]).toEqual([400, 'VALIDATION_FAILED']);
    expect((await t.database.db.select().from(diplomas)).length).toBe(rows);
  });
});

describe('a phase something later depends on', () => {
  it('is not reopened once a later phase started (NEXT_PHASE_STARTED)', async () => {
    // The online phase comes first; the hybrid one after it has started (and closed).
    await w.setPhase(w.online.id, { state: 'closed', closedAt: new Date() });
    const res = await reopen(w.online.id, w.examAdmin, { reason: 'Prea târziu' });
    expect([res.statusCode, codeOf(res)]).toEqual([409, 'NEXT_PHASE_STARTED']);
  });

  it('is not reopened while students it admitted are in the next phase (STUDENTS_ADVANCED)', async () => {
    await w.setPhase(w.hybrid.id, {
      state: 'open',
      reviewStarted: false,
      startDate: new Date('2026-12-10T08:00:00Z'),
      endDate: new Date('2026-12-10T20:00:00Z'),
    });
    const res0 = await reopen(w.online.id, w.examAdmin, { reason: 'Corectură' });
    expect(res0.statusCode, res0.body).toBe(200);
    await w.setPhase(w.online.id, { state: 'closed', closedAt: new Date() });
    await t.database.db
      .update(phaseStudents)
      .set({ source: 'advanced' })
      .where(and(eq(phaseStudents.phaseId, w.hybrid.id), eq(phaseStudents.studentId, w.ana.id)));
    const res = await reopen(w.online.id, w.examAdmin, { reason: 'Corectură' });
    expect([res.statusCode, codeOf(res)]).toEqual([409, 'STUDENTS_ADVANCED']);
    expect(res.json()).toMatchObject({ error: { details: { phaseId: w.hybrid.id, count: 1 } } });
  });
});
