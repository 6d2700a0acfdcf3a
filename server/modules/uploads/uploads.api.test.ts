import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Answer, StudentItems, UploadResult } from '../../../shared/schemas/uploads.js';
import { makeEnrolment } from '../../db/factories.js';
import { answers, auditEvents, files, phases, tests } from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { heldTransaction, someoneWaits } from '../../test/db.js';
import {
  codeOf,
  DURING,
  detailsOf,
  filesForm,
  HYBRID_END,
  HYBRID_START,
  movableClock,
  noisyPng,
  type Part,
  type Person,
  sampleGif,
  sampleHeic,
  sampleJpeg,
  samplePdf,
  samplePng,
  uploadsKit,
} from './uploads.fixtures.js';

// Small limits so the size rules are cheap to provoke: 64 KiB a file, 4 × that an answer.
const MAX_FILE = 64 * 1024;
const clock = movableClock(DURING);
let t: TestApp;
let kit: ReturnType<typeof uploadsKit>;
let w: Awaited<ReturnType<ReturnType<typeof uploadsKit>['world']>>;
let ana: Person;
let bogdan: Person;

beforeAll(async () => {
  t = await buildTestApp({ clock, env: { UPLOAD_MAX_BYTES: String(MAX_FILE) } });
  kit = uploadsKit(t);
  w = await kit.world();
  ana = w.students.ana;
  bogdan = w.students.bogdan;
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => clock.set(DURING));

const item = (n: number) => {
  const id = w.hybridTest.questionIds[n];
  if (!id) throw new Error(`no item ${n}`);
  return id;
};
const upload = (p: Person, itemId: string, parts: Part[], studentId?: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/upload-mgmt${w.hybridUrl}${studentId ? `/students/${studentId}` : ''}/items/${itemId}/answers`,
    headers: p.headers,
    payload: filesForm(parts),
  });
const itemsOf = async (p: Person, studentId: string) => {
  const res = await kit.call('GET', `${w.hybridUrl}/students/${studentId}/items`, p.headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as StudentItems;
};
const setReview = (reviewStarted: boolean, state: 'open' | 'closed' = 'open') =>
  t.database.db.update(phases).set({ reviewStarted, state }).where(eq(phases.id, w.hybrid.id));

describe('a student uploads their answer', () => {
  it('keeps png, pdf and jpeg pages in order and lists them with the item', async () => {
    const res = await upload(ana, item(0), [
      { name: 'pagina-1.png', data: samplePng() },
      { name: 'pagina-2.pdf', data: samplePdf() },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as UploadResult;
    expect(answer.itemId).toBe(item(0));
    expect(answer.studentId).toBe(ana.id);
    expect(answer.areFilesUploaded).toBe(true);
    expect(answer.enteredBy).toBeNull();
    expect(answer.rejectedFiles).toEqual([]);
    expect(answer.answerFiles.map((f) => [f.name, f.mime])).toEqual([
      ['pagina-1.png', 'image/png'],
      ['pagina-2.pdf', 'application/pdf'],
    ]);

    // Re-uploading adds to the same answer.
    const again = await upload(ana, item(0), [{ name: 'foto.jpeg', data: await sampleJpeg() }]);
    expect(again.statusCode, again.body).toBe(200);
    const extended = again.json() as UploadResult;
    expect(extended._id).toBe(answer._id);
    expect(extended.answerFiles.map((f) => f.mime)).toEqual([
      'image/png',
      'application/pdf',
      'image/jpeg',
    ]);

    const view = await itemsOf(ana, ana.id);
    expect(view.uploadState).toBe('open');
    expect(view.status).toBe('uploaded');
    expect(view.items.map((i) => i.index)).toEqual([1, 2, 3]);
    expect(view.items[0]?.answer?.answerFiles).toHaveLength(3);
    expect(view.items[1]?.answer).toBeNull();
    // Students never get the correct answers.
    expect(view.items.every((i) => !('itemCorrectAnswers' in i))).toBe(true);
    expect(view.limits).toMatchObject({ maxFileBytes: MAX_FILE, maxAnswerBytes: 4 * MAX_FILE });
  });

  it('judges the type by the bytes: a GIF or text named .png is flagged and ignored', async () => {
    const res = await upload(ana, item(1), [
      { name: 'desen.png', data: sampleGif(), type: 'image/png' },
      { name: 'bun.png', data: samplePng() },
      { name: 'notite.png', data: Buffer.from('doar text, nu o imagine') },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as UploadResult;
    expect(answer.answerFiles.map((f) => f.name)).toEqual(['bun.png']);
    expect(answer.rejectedFiles).toEqual([
      { field: 'item_0', name: 'desen.png', code: 'FILE_TYPE_NOT_ALLOWED', mime: 'image/gif' },
      { field: 'item_2', name: 'notite.png', code: 'FILE_TYPE_NOT_ALLOWED', mime: null },
    ]);

    const only = await upload(ana, item(1), [{ name: 'poza.png', data: sampleGif() }]);
    expect(only.statusCode).toBe(415);
    expect(codeOf(only)).toBe('FILE_TYPE_NOT_ALLOWED');
    expect(detailsOf(only)).toEqual({
      rejectedFiles: [
        { field: 'item_0', name: 'poza.png', code: 'FILE_TYPE_NOT_ALLOWED', mime: 'image/gif' },
      ],
    });
  });

  it('refuses HEIC phone photos with their own code', async () => {
    const res = await upload(ana, item(2), [{ name: 'IMG_0042.HEIC', data: sampleHeic() }]);
    expect(res.statusCode).toBe(415);
    expect(codeOf(res)).toBe('FILE_TYPE_HEIC');
    // Even named .jpg; and beside a good page it is reported, the page kept.
    const mixed = await upload(ana, item(2), [
      { name: 'IMG_0043.jpg', data: sampleHeic() },
      { name: 'scan.pdf', data: samplePdf() },
    ]);
    expect(mixed.statusCode, mixed.body).toBe(200);
    const answer = mixed.json() as UploadResult;
    expect(answer.answerFiles.map((f) => f.name)).toEqual(['scan.pdf']);
    expect(answer.rejectedFiles.map((r) => [r.name, r.code])).toEqual([
      ['IMG_0043.jpg', 'FILE_TYPE_HEIC'],
    ]);
  });

  it('limits each file and the whole answer', async () => {
    const big = noisyPng(MAX_FILE + 10);
    const res = await upload(bogdan, item(0), [{ name: 'mare.png', data: big }]);
    expect(res.statusCode).toBe(413);
    expect(codeOf(res)).toBe('FILE_TOO_LARGE');

    // Four files just under the limit fill the answer; a fifth does not fit.
    const almost = noisyPng(MAX_FILE - 2_000, 9);
    const four = await upload(
      bogdan,
      item(0),
      [0, 1, 2, 3].map((i) => ({ name: `p${i}.png`, data: almost })),
    );
    expect(four.statusCode, four.body).toBe(200);
    const fifth = await upload(bogdan, item(0), [{ name: 'p4.png', data: almost }]);
    expect(fifth.statusCode).toBe(413);
    expect(codeOf(fifth)).toBe('ANSWER_TOO_LARGE');
    expect((await itemsOf(bogdan, bogdan.id)).items[0]?.answer?.answerFiles).toHaveLength(4);

    // More files than an answer may hold, in one request.
    const many = await upload(
      bogdan,
      item(1),
      Array.from({ length: 21 }, (_, i) => ({ name: `m${i}.png`, data: samplePng() })),
    );
    expect(many.statusCode).toBe(413);
    expect(codeOf(many)).toBe('ANSWER_TOO_LARGE');
  });

  it('refuses uploads without a file or under another field name', async () => {
    const none = await upload(ana, item(1), []);
    expect(none.statusCode).toBe(400);
    const other = await upload(ana, item(1), [
      { name: 'a.png', data: samplePng(), field: 'fisier' },
    ]);
    expect(other.statusCode).toBe(400);
    expect(codeOf(other)).toBe('VALIDATION_FAILED');
    expect(detailsOf(other)).toEqual([{ code: 'invalid', path: ['fisier'] }]);
    const notAnItem = await upload(ana, w.onlineTest.questionIds[0] ?? '', [
      { name: 'a.png', data: samplePng() },
    ]);
    expect(notAnItem.statusCode).toBe(404);
  });
});

describe('when a student may upload', () => {
  it('only inside the window of a published test (TEST_NOT_ACTIVE)', async () => {
    clock.set('2026-11-23T08:59:00.000Z');
    const early = await upload(ana, item(1), [{ name: 'a.png', data: samplePng() }]);
    expect(early.statusCode).toBe(409);
    expect(codeOf(early)).toBe('TEST_NOT_ACTIVE');
    // Before the start the statements stay secret too.
    const peek = await kit.call('GET', `${w.hybridUrl}/students/${ana.id}/items`, ana.headers);
    expect(codeOf(peek)).toBe('TEST_NOT_ACTIVE');

    clock.set(HYBRID_START);
    expect((await upload(ana, item(1), [{ name: 'a.png', data: samplePng() }])).statusCode).toBe(
      200,
    );

    clock.set('2026-11-23T12:00:01.000Z');
    const late = await upload(ana, item(1), [{ name: 'b.png', data: samplePng() }]);
    expect(codeOf(late)).toBe('TEST_NOT_ACTIVE');
    const answerId = (await itemsOf(ana, ana.id)).items[1]?.answer?._id;
    const lateDelete = await kit.call('PATCH', `${w.hybridUrl}/answers/${answerId}`, ana.headers, {
      answerFiles: [],
    });
    expect(codeOf(lateDelete)).toBe('TEST_NOT_ACTIVE');
    // After the end the student still sees their answers, read-only.
    expect((await itemsOf(ana, ana.id)).uploadState).toBe('ended');

    clock.set(HYBRID_END);
    await t.database.db
      .update(tests)
      .set({ published: false })
      .where(eq(tests.id, w.hybridTest.test.id));
    clock.set(DURING);
    try {
      const unpublished = await upload(ana, item(1), [{ name: 'c.png', data: samplePng() }]);
      expect(codeOf(unpublished)).toBe('TEST_NOT_ACTIVE');
    } finally {
      await t.database.db
        .update(tests)
        .set({ published: true })
        .where(eq(tests.id, w.hybridTest.test.id));
    }
  });

  it('never once the review has started or the phase is closed (PHASE_CLOSED), staff neither', async () => {
    const answerId = (await itemsOf(ana, ana.id)).items[0]?.answer?._id;
    await setReview(true);
    try {
      const res = await upload(ana, item(0), [{ name: 'a.png', data: samplePng() }]);
      expect(res.statusCode).toBe(409);
      expect(codeOf(res)).toBe('PHASE_CLOSED');
      expect(detailsOf(res)).toEqual({ reason: 'review_started' });
      const del = await kit.call('PATCH', `${w.hybridUrl}/answers/${answerId}`, ana.headers, {
        answerFiles: [],
      });
      expect(codeOf(del)).toBe('PHASE_CLOSED');
      const staff = await upload(
        w.examAdmin,
        item(0),
        [{ name: 'a.png', data: samplePng() }],
        w.students.elena.id,
      );
      expect(codeOf(staff)).toBe('PHASE_CLOSED');
      expect((await itemsOf(ana, ana.id)).uploadState).toBe('review_started');

      await setReview(false, 'closed');
      const closed = await upload(ana, item(0), [{ name: 'a.png', data: samplePng() }]);
      expect(codeOf(closed)).toBe('PHASE_CLOSED');
    } finally {
      await setReview(false, 'open');
    }
  });
});

describe('whose answers a student reaches', () => {
  it("another student's answer, items and files are not found", async () => {
    const anaItems = await itemsOf(ana, ana.id);
    const answer = anaItems.items[0]?.answer;
    if (!answer) throw new Error('no answer');
    const other = w.students.elena;
    const seeItems = await kit.call(
      'GET',
      `${w.hybridUrl}/students/${ana.id}/items`,
      other.headers,
    );
    expect(seeItems.statusCode).toBe(404);
    const patch = await kit.call('PATCH', `${w.hybridUrl}/answers/${answer._id}`, other.headers, {
      answerFiles: [],
    });
    expect(patch.statusCode).toBe(404);
    const files = await kit.call(
      'GET',
      `${w.hybridUrl}/answers/${answer._id}/files`,
      other.headers,
    );
    expect(files.statusCode).toBe(404);
    const onBehalf = await upload(other, item(0), [{ name: 'a.png', data: samplePng() }], ana.id);
    expect(onBehalf.statusCode).toBe(404);
    // Nothing changed.
    expect((await itemsOf(ana, ana.id)).items[0]?.answer?.answerFiles).toHaveLength(
      answer.answerFiles.length,
    );
  });

  it('only for a test of their phase and grade, and only hybrid ones', async () => {
    const carmen = w.students.carmen; // grade 5: in the phase, not in the test's grades
    const dan = w.students.dan; // grade 7, not in the phase
    for (const p of [carmen, dan]) {
      const res = await upload(p, item(0), [{ name: 'a.png', data: samplePng() }]);
      expect(res.statusCode, p.email).toBe(404);
      const view = await kit.call('GET', `${w.hybridUrl}/students/${p.id}/items`, p.headers);
      expect(view.statusCode).toBe(404);
    }
    const online = await t.app.inject({
      method: 'POST',
      url: `/api/v1/upload-mgmt${w.onlineUrl}/items/${w.onlineTest.questionIds[0]}/answers`,
      headers: ana.headers,
      payload: filesForm([{ name: 'a.png', data: samplePng() }]),
    });
    expect(online.statusCode).toBe(404);
    // A path whose parts do not belong together.
    const wrongPath = await kit.call(
      'GET',
      `${w.hybridUrl.replace(w.hybrid.id, w.online.id)}/students/${ana.id}/items`,
      ana.headers,
    );
    expect(wrongPath.statusCode).toBe(404);
  });
});

describe('deleting and reordering pages', () => {
  it('keeps only the listed files, in the listed order', async () => {
    const res = await upload(w.students.elena, item(0), [
      { name: 'unu.png', data: samplePng() },
      { name: 'doi.pdf', data: samplePdf() },
      { name: 'trei.png', data: samplePng(3) },
    ]);
    const answer = res.json() as UploadResult;
    const [one, two, three] = answer.answerFiles.map((f) => f._id);
    const url = `${w.hybridUrl}/answers/${answer._id}`;
    const reordered = await kit.call('PATCH', url, w.students.elena.headers, {
      answerFiles: [three, one],
    });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect((reordered.json() as Answer).answerFiles.map((f) => f.name)).toEqual([
      'trei.png',
      'unu.png',
    ]);
    // A file the answer does not have (any more), or twice: refused, nothing changes.
    for (const answerFiles of [[three, two], [one, one], [w.hybridTest.test.id]]) {
      const bad = await kit.call('PATCH', url, w.students.elena.headers, { answerFiles });
      expect(bad.statusCode).toBe(400);
      expect(codeOf(bad)).toBe('CLIENT_ERROR');
      expect(detailsOf(bad)).toEqual({ answerFiles: ['invalid'] });
    }
    const malformed = await kit.call('PATCH', url, w.students.elena.headers, { answerFiles: 'x' });
    expect(codeOf(malformed)).toBe('VALIDATION_FAILED');
    const emptied = await kit.call('PATCH', url, w.students.elena.headers, { answerFiles: [] });
    expect(emptied.statusCode).toBe(200);
    expect(emptied.json()).toMatchObject({ answerFiles: [], areFilesUploaded: false });
  });
});

describe('downloading an answer', () => {
  it('one file inline by its type, or all of them as response_{answerId}.zip', async () => {
    const res = await upload(bogdan, item(2), [
      { name: 'Rezolvare ă.png', data: samplePng() },
      { name: 'anexa.pdf', data: samplePdf() },
    ]);
    const answer = res.json() as UploadResult;
    const [png, pdf] = answer.answerFiles;
    if (!png || !pdf) throw new Error('files missing');
    const url = `${w.hybridUrl}/answers/${answer._id}/files`;

    const one = await kit.call('GET', `${url}?fileId=${pdf._id}`, bogdan.headers);
    expect(one.statusCode).toBe(200);
    expect(one.headers['content-type']).toBe('application/pdf');
    expect(one.headers['content-disposition']).toMatch(/^inline; filename="anexa.pdf"/);
    // The bytes stored, which its row describes.
    const [row] = await t.database.db.select().from(files).where(eq(files.id, pdf._id));
    expect(row?.sha256).toBe(createHash('sha256').update(one.rawPayload).digest('hex'));
    expect((await PDFDocument.load(one.rawPayload)).getPageCount()).toBe(1);

    const zip = await kit.call('GET', url, w.staff.headers);
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.headers['content-disposition']).toContain(`response_${answer._id}.zip`);
    const body = zip.rawPayload;
    expect(body.readUInt32LE(0)).toBe(0x04034b50);
    expect(body.includes(Buffer.from('01-Rezolvare ă.png'))).toBe(true);
    expect(body.includes(Buffer.from('02-anexa.pdf'))).toBe(true);

    const foreign = await kit.call('GET', `${url}?fileId=${w.hybridTest.test.id}`, bogdan.headers);
    expect(foreign.statusCode).toBe(404);
  });
});

describe('staff enter the answer of a student who wrote on paper', () => {
  it('the exam admin enters it: enteredBy set and audited', async () => {
    const cristi = await kit.person({ type: 'student', givenName: 'Cristi', grade: 8 });
    const { makeEnrolment } = await import('../../db/factories.js');
    await makeEnrolment(t.database.db, {
      editionId: w.edition.id,
      studentId: cristi.id,
      grade: 8,
      phaseIds: [w.hybrid.id],
    });
    // After the window: staff collect the papers once the test is over.
    clock.set('2026-11-24T10:00:00.000Z');
    const res = await upload(
      w.examAdmin,
      item(1),
      [
        { name: 'lucrare-p1.jpg', data: await sampleJpeg() },
        { name: 'lucrare-p2.pdf', data: samplePdf() },
      ],
      cristi.id,
    );
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as UploadResult;
    expect(answer.enteredBy).toBe(w.examAdmin.id);
    expect(answer.studentId).toBe(cristi.id);

    const events = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityType, 'answer'), eq(auditEvents.entityId, answer._id)));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      actorId: w.examAdmin.id,
      action: 'answer.enter',
      reason: 'paper',
      before: { fileIds: [], enteredBy: null },
      after: {
        fileIds: answer.answerFiles.map((f) => f._id),
        studentId: cristi.id,
        itemId: item(1),
      },
    });
    const [row] = await t.database.db.select().from(answers).where(eq(answers.id, answer._id));
    expect(row?.enteredBy).toBe(w.examAdmin.id);

    // A platform admin removes a page: audited too.
    const [first] = answer.answerFiles;
    const patched = await kit.call(
      'PATCH',
      `${w.hybridUrl}/answers/${answer._id}`,
      w.admin.headers,
      {
        answerFiles: [first?._id],
      },
    );
    expect(patched.statusCode, patched.body).toBe(200);
    const after = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityType, 'answer'), eq(auditEvents.entityId, answer._id)));
    expect(after.map((e) => e.action).sort()).toEqual(['answer.enter', 'answer.files.change']);

    // The student cannot change what staff entered from their paper.
    clock.set(DURING);
    const own = await upload(cristi, item(1), [{ name: 'x.png', data: samplePng() }]);
    expect(own.statusCode).toBe(403);
    const ownPatch = await kit.call(
      'PATCH',
      `${w.hybridUrl}/answers/${answer._id}`,
      cristi.headers,
      {
        answerFiles: [],
      },
    );
    expect(ownPatch.statusCode).toBe(403);
    // But reads it.
    const seen = await itemsOf(cristi, cristi.id);
    expect(seen.items[1]?.answer?.enteredBy).toBe(w.examAdmin.id);
  });

  it('concurrent uploads to one answer all land, in some order, none lost', async () => {
    const fiona = await kit.person({ type: 'student', givenName: 'Fiona', grade: 7 });
    const { makeEnrolment } = await import('../../db/factories.js');
    await makeEnrolment(t.database.db, {
      editionId: w.edition.id,
      studentId: fiona.id,
      grade: 7,
      phaseIds: [w.hybrid.id],
    });
    const results = await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        upload(fiona, item(2), [{ name: `p${i}.png`, data: samplePng(2, [i, i, i]) }]),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const names = (await itemsOf(fiona, fiona.id)).items[2]?.answer?.answerFiles.map((f) => f.name);
    expect([...(names ?? [])].sort()).toEqual(['p0.png', 'p1.png', 'p2.png', 'p3.png', 'p4.png']);
  });

  it('staff and coordinators may not delete pages either', async () => {
    const answer = (await itemsOf(ana, ana.id)).items[0]?.answer;
    if (!answer) throw new Error('no answer');
    for (const p of [w.staff, w.coordinator]) {
      const res = await kit.call('PATCH', `${w.hybridUrl}/answers/${answer._id}`, p.headers, {
        answerFiles: [],
      });
      expect(res.statusCode).toBe(403);
    }
    const outsider = await kit.call(
      'PATCH',
      `${w.hybridUrl}/answers/${answer._id}`,
      w.outsider.headers,
      {
        answerFiles: [],
      },
    );
    expect(outsider.statusCode).toBe(404);
    expect((await itemsOf(ana, ana.id)).items[0]?.answer?.answerFiles).toHaveLength(
      answer.answerFiles.length,
    );
  });

  it('staff and coordinators view but may not enter; outsiders do not find the test', async () => {
    const elena = w.students.elena.id;
    const parts = [{ name: 'a.png', data: samplePng() }];
    expect((await upload(w.staff, item(2), parts, elena)).statusCode).toBe(403);
    expect((await upload(w.coordinator, item(2), parts, elena)).statusCode).toBe(403);
    // Bogdan is not the coordinator's student: not found for him.
    expect((await upload(w.coordinator, item(2), parts, bogdan.id)).statusCode).toBe(404);
    expect((await upload(w.outsider, item(2), parts, elena)).statusCode).toBe(404);
    expect((await upload(w.otherCoordinator, item(2), parts, elena)).statusCode).toBe(404);
    // The students' own path is for students.
    expect((await upload(w.examAdmin, item(2), parts)).statusCode).toBe(403);
    // A student of the phase outside the test's grades cannot be entered either.
    expect((await upload(w.examAdmin, item(2), parts, w.students.carmen.id)).statusCode).toBe(404);
    // Online tests take no files.
    const online = await t.app.inject({
      method: 'POST',
      url: `/api/v1/upload-mgmt${w.onlineUrl}/students/${ana.id}/items/${w.onlineTest.questionIds[0]}/answers`,
      headers: w.examAdmin.headers,
      payload: filesForm(parts),
    });
    expect(online.statusCode).toBe(400);
    expect(codeOf(online)).toBe('CLIENT_ERROR');
  });
});

describe.skipIf(!process.env.DATABASE_URL)('an upload racing a removal from the phase', () => {
  it('waits for the removal and then stores nothing: the student is no longer the test’s', async () => {
    const pool = t.database.pool;
    if (!pool) throw new Error('PostgreSQL only');
    const p = await kit.person({ type: 'student', grade: 7 });
    await makeEnrolment(t.database.db, {
      editionId: w.edition.id,
      studentId: p.id,
      grade: 7,
      phaseIds: [w.hybrid.id],
    });
    const removal = await heldTransaction(pool, (c) =>
      c.query('delete from phase_students where phase_id = $1 and student_id = $2', [
        w.hybrid.id,
        p.id,
      ]),
    );
    try {
      const res = upload(p, item(0), [{ name: 'pagina.png', data: samplePng() }]);
      await someoneWaits(pool);
      await removal.commit();
      const done = await res;
      expect(done.statusCode, done.body).toBe(404);
    } catch (err) {
      await removal.rollback().catch(() => {});
      throw err;
    }
    const stored = await t.database.db.select().from(answers).where(eq(answers.studentId, p.id));
    expect(stored).toHaveLength(0);
  });
});
