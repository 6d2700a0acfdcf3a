import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editionAfterWord } from '../../../shared/editions.js';
import { DIPLOMA_VERIFY_PER_MINUTE } from '../../../shared/schemas/diplomas.js';
import { buildApp } from '../../app.js';
import { diplomaJobs, diplomas, phasePrizes, phases } from '../../db/schema.js';
import { systemClock } from '../../lib/clock.js';
import { createStorage } from '../../lib/files/storage.js';
import { createMailer } from '../../lib/mail/mailer.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { codeOf, type Person, rankingsKit } from '../rankings/rankings.fixtures.js';
import { diplomaJobs as jobMaker } from './diploma-jobs.js';
import * as repo from './diplomas.repo.js';

const API = '/api/v1/diploma-generator';

let t: TestApp;
let kit: ReturnType<typeof rankingsKit>;
let admin: Person;
let w: Awaited<ReturnType<typeof kit.world>>;
const s: Record<string, Person> = {};
let scratch: string;

/** The text of a PDF as pdftotext reads it, or its title when poppler is not installed. */
function pdfText(pdf: Buffer): string {
  const file = path.join(scratch, `d-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  try {
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } catch {
    // Without poppler: the document's title (UTF-16 in hex) names the person and competition.
    const title = /\/Title <FEFF([0-9A-F]+)>/.exec(pdf.toString('latin1'))?.[1] ?? '';
    return Buffer.from(title, 'hex').swap16().toString('utf16le');
  }
}

/** The entries of a stored ZIP (names and contents), each checked against its CRC. */
function readZip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i += 1) {
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataAt = local + 30 + zip.readUInt16LE(local + 26);
    const data = zip.subarray(dataAt, dataAt + size);
    expect(crc32(data), name).toBe(crc);
    files.set(name, data);
    at += 46 + nameLength;
  }
  return files;
}

const request = (userId: string, phaseId = w.phase.id) => ({
  examId: w.exam.id,
  editionId: w.edition.id,
  phaseId,
  userId,
  callbackUrl: 'https://elsewhere.example.com/student',
});

const download = (who: Person | null, body: object) =>
  t.app.inject({
    method: 'POST',
    url: `${API}/diplomas`,
    headers: who?.headers ?? {},
    payload: body,
  });

const call = (method: 'GET' | 'POST', url: string, who: Person | null, payload?: object) =>
  t.app.inject({
    method,
    url: `${API}${url}`,
    headers: who?.headers ?? {},
    ...(payload ? { payload } : {}),
  });

const codeIn = (text: string) =>
  /Cod de verificare: ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/.exec(text)?.[1];

beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'diplomas-'));
  t = await buildTestApp();
  kit = rankingsKit(t);
  admin = await kit.person({ type: 'admin' });
  w = await kit.world();
  const school = 'Școala Gimnazială „Ștefan cel Mare” Iași';
  const seeds = [
    { givenName: 'Ana', familyName: 'Țurcanu', total: 27, teacherRef: w.coordinator.id, school },
    { givenName: 'Bogdan', familyName: 'Popa', total: 18, teacherRef: w.outsider.id },
    { givenName: 'Carmen', familyName: 'Pop', total: 12, teacherRef: w.coordinator.id, grade: 6 },
    { givenName: 'Dan', familyName: 'Ionescu', total: 10 },
    // Takes part without a result: no diploma.
    { givenName: 'Florin', familyName: 'Dinu', total: null },
  ];
  for (const seed of seeds) s[seed.givenName] = await kit.student(w, seed);
  // Prizes as the rankings module's rules write them.
  await t.database.db.insert(phasePrizes).values([
    { phaseId: w.phase.id, studentId: s.Ana?.id ?? '', prize: 'first' },
    { phaseId: w.phase.id, studentId: s.Bogdan?.id ?? '', prize: 'mention' },
  ]);
}, 180_000);
afterAll(async () => {
  await t.close();
  rmSync(scratch, { recursive: true, force: true });
});

const closePhase = () =>
  t.database.db.update(phases).set({ state: 'closed' }).where(eq(phases.id, w.phase.id));

describe('POST /diplomas', () => {
  it('refuses while the phase is open (results not final), after checking rights', async () => {
    const own = await download(s.Ana ?? null, request(s.Ana?.id ?? ''));
    expect(own.statusCode).toBe(409);
    expect(codeOf(own)).toBe('RESULTS_NOT_FINAL');
    // Rights come first: someone else's diploma is 403 even now.
    const other = await download(s.Bogdan ?? null, request(s.Ana?.id ?? ''));
    expect(other.statusCode).toBe(403);
  });

  it("prints a student's prize with diacritics, grade, school, competition and a code", async () => {
    await closePhase();
    const res = await download(s.Ana ?? null, request(s.Ana?.id ?? ''));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^inline; filename="diploma-/);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(res.rawPayload);
    expect(text).toContain('Ana Țurcanu');
    expect(text).toContain(w.exam.name);
    if (text.includes('DIPLOMĂ')) {
      expect(text).toContain('Premiul I');
      expect(text).toContain('clasa a V-a');
      expect(text).toContain('Școala Gimnazială „Ștefan cel Mare” Iași');
      expect(text).toContain(w.phase.name);
      // The edition as the sentence names it: "ediția 7", not "ediția Ediția 7".
      expect(text).toContain(`ediția ${editionAfterWord(w.edition.name)}`);
      // The QR code's page is on the configured origin, never the request's callbackUrl.
      expect(text).not.toContain('elsewhere.example.com');
      expect(text).toMatch(/\/diploma\/verificare\/[0-9A-Z-]{14}/);
      const code = codeIn(text);
      expect(code).toBeDefined();
      // The same person and phase keep their code.
      const again = await download(admin, request(s.Ana?.id ?? ''));
      expect(codeIn(pdfText(again.rawPayload))).toBe(code);
    }
  });

  it('prints participation for a student without a prize, and a mention', async () => {
    const dan = pdfText((await download(s.Dan ?? null, request(s.Dan?.id ?? ''))).rawPayload);
    expect(dan).toContain('Dan Ionescu');
    if (dan.includes('DIPLOMĂ')) {
      expect(dan).toContain('de participare');
      expect(dan).not.toContain('Premiul');
    }
    const bogdan = await download(w.outsider, request(s.Bogdan?.id ?? ''));
    expect(bogdan.statusCode, bogdan.body).toBe(200);
    const text = pdfText(bogdan.rawPayload);
    if (text.includes('DIPLOMĂ')) expect(text).toContain('Mențiune');
  });

  it("prints a teacher's diploma listing the students they prepared", async () => {
    const res = await download(w.coordinator, request(w.coordinator.id));
    expect(res.statusCode, res.body).toBe(200);
    const text = pdfText(res.rawPayload);
    if (text.includes('DIPLOMĂ')) {
      expect(text).toContain('profesorului coordonator');
      expect(text).toContain('Ana Țurcanu');
      expect(text).toContain('Carmen Pop');
      expect(text).toContain('clasa a VI-a');
      expect(text).not.toContain('Bogdan');
      expect(text).not.toContain('Dan Ionescu');
    }
  });

  it('lets the person, their teacher and the organisers download; others get 403', async () => {
    const ana = request(s.Ana?.id ?? '');
    for (const who of [s.Ana, w.coordinator, w.staff, w.examAdmin, admin]) {
      expect((await download(who ?? null, ana)).statusCode).toBe(200);
    }
    for (const who of [s.Bogdan, s.Carmen, w.outsider]) {
      const res = await download(who ?? null, ana);
      expect(res.statusCode).toBe(403);
      expect(codeOf(res)).toBe('OPERATION_NOT_PERMITTED');
    }
    // A teacher's diploma: the teacher and the organisers; not another teacher.
    expect((await download(w.outsider, request(w.coordinator.id))).statusCode).toBe(403);
    expect((await download(s.Ana ?? null, request(w.coordinator.id))).statusCode).toBe(403);
    expect((await download(w.staff, request(w.coordinator.id))).statusCode).toBe(200);
    expect((await download(null, ana)).statusCode).toBe(401);
  });

  it('answers 404 without a result, for a teacher without students and outside the phase', async () => {
    const florin = await download(admin, request(s.Florin?.id ?? ''));
    expect(florin.statusCode).toBe(404);
    expect(codeOf(florin)).toBe('NOT_FOUND');
    expect((await download(w.staff, request(w.staff.id))).statusCode).toBe(404);
    const wrongPhase = await download(admin, request(s.Ana?.id ?? '', w.exam.id));
    expect(wrongPhase.statusCode).toBe(404);
  });

  it('refuses bad bodies with VALIDATION_FAILED', async () => {
    const res = await download(admin, { ...request(s.Ana?.id ?? ''), userId: 'nu-e-un-id' });
    expect(res.statusCode).toBe(400);
    const extra = await download(admin, { ...request(s.Ana?.id ?? ''), surplus: 1 });
    expect(extra.statusCode).toBe(400);
  });
});

describe('GET /verify/{code}', () => {
  it('confirms a diploma by its code (any case, with or without dashes), nothing more', async () => {
    const text = pdfText((await download(s.Ana ?? null, request(s.Ana?.id ?? ''))).rawPayload);
    const code = codeIn(text);
    if (!code) return; // Without pdftotext the code is read in the bulk test below.
    for (const typed of [code, code.replace(/-/g, '').toLowerCase()]) {
      const res = await call('GET', `/verify/${typed}`, null);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        code,
        kind: 'student',
        name: 'Ana Țurcanu',
        examName: w.exam.name,
        editionName: w.edition.name,
        phaseName: w.phase.name,
        grade: 5,
        school: 'Școala Gimnazială „Ștefan cel Mare” Iași',
        prize: 'first',
        studentCount: null,
        issuedAt: expect.any(String),
        replacedAt: null,
        anonymised: false,
      });
      expect(res.body).not.toContain(s.Ana?.email ?? '@');
      expect(res.body).not.toContain(s.Ana?.id ?? '-');
    }
    const teacherText = pdfText(
      (await download(w.coordinator, request(w.coordinator.id))).rawPayload,
    );
    const teacher = await call('GET', `/verify/${codeIn(teacherText)}`, null);
    expect(teacher.json()).toMatchObject({ kind: 'teacher', studentCount: 2, school: null });
  });

  it('answers 404 for an unknown code and 400 for something that is not a code', async () => {
    const unknown = await call('GET', '/verify/0000-0000-0000', null);
    expect(unknown.statusCode).toBe(404);
    expect(codeOf(unknown)).toBe('NOT_FOUND');
    expect((await call('GET', '/verify/nu-e-cod', null)).statusCode).toBe(400);
  });
});

describe('GET /my-diplomas', () => {
  it("lists a student's own and a teacher's own and their students'", async () => {
    const ana = (await call('GET', '/my-diplomas', s.Ana ?? null)).json() as Record<
      string,
      unknown
    >[];
    expect(ana).toHaveLength(1);
    expect(ana[0]).toMatchObject({
      userId: s.Ana?.id,
      kind: 'student',
      prize: 'first',
      grade: 5,
      available: true,
      phaseId: w.phase.id,
    });
    const florin = (await call('GET', '/my-diplomas', s.Florin ?? null)).json() as unknown[];
    expect(florin).toEqual([]);
    const teacher = (await call('GET', '/my-diplomas', w.coordinator)).json() as {
      userId: string;
      kind: string;
    }[];
    expect(teacher.map((d) => `${d.kind}:${d.userId}`).sort()).toEqual(
      [`teacher:${w.coordinator.id}`, `student:${s.Ana?.id}`, `student:${s.Carmen?.id}`].sort(),
    );
  });
});

describe('diploma ZIPs', () => {
  it('makes a whole phase in the background with its progress, for the organisers', async () => {
    const created = await call('POST', '/jobs', w.staff, {
      examId: w.exam.id,
      editionId: w.edition.id,
      phaseId: w.phase.id,
    });
    expect(created.statusCode, created.body).toBe(202);
    const job = created.json() as { _id: string; state: string; total: number; done: number };
    // Four students with a result and their two teachers.
    expect(job).toMatchObject({ state: 'queued', total: 6, done: 0 });
    const early = await call('GET', `/jobs/${job._id}/file`, w.staff);
    expect(early.statusCode).toBe(409);
    expect(codeOf(early)).toBe('DIPLOMA_JOB_NOT_READY');
    // Someone else's job is not found.
    expect((await call('GET', `/jobs/${job._id}`, w.examAdmin)).statusCode).toBe(404);
    expect((await call('GET', `/jobs/${job._id}/file`, admin)).statusCode).toBe(404);

    expect(await t.app.diplomaJobs.runPending()).toBeGreaterThanOrEqual(1);
    const done = (await call('GET', `/jobs/${job._id}`, w.staff)).json();
    expect(done).toMatchObject({ state: 'done', total: 6, done: 6, errorCode: null });
    expect(done.fileName).toMatch(/^diplome-etapa-\d+\.zip$/);
    // Drawn to the disk and moved into storage: nothing left where it was written.
    expect(readdirSync(path.join(t.dataDir, 'files', '.tmp'))).toEqual([]);
    const listed = (await call('GET', '/jobs', w.staff)).json() as { _id: string }[];
    expect(listed.map((j) => j._id)).toContain(job._id);

    const file = await call('GET', `/jobs/${job._id}/file`, w.staff);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    // Sent from the stored file as a stream, its length said up front.
    expect(Number(file.headers['content-length'])).toBe(file.rawPayload.length);
    const files = readZip(file.rawPayload);
    const names = [...files.keys()].sort();
    expect(names).toHaveLength(6);
    expect(names.filter((n) => n.startsWith('profesori/'))).toHaveLength(2);
    expect(names.some((n) => /^Ana Țurcanu - [0-9A-Z-]{14}\.pdf$/.test(n))).toBe(true);
    expect(names.some((n) => n.includes('Florin'))).toBe(false);
    for (const pdf of files.values()) expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

    // Each diploma in the ZIP is confirmed by its code.
    const anaName = names.find((n) => n.startsWith('Ana'));
    const code = /- ([0-9A-Z-]{14})\.pdf$/.exec(anaName ?? '')?.[1];
    const verified = await call('GET', `/verify/${code}`, null);
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ name: 'Ana Țurcanu', prize: 'first' });
  });

  it("makes one teacher's ZIP for that teacher; others are refused", async () => {
    const body = {
      examId: w.exam.id,
      editionId: w.edition.id,
      phaseId: w.phase.id,
      teacherId: w.coordinator.id,
    };
    const own = await call('POST', '/jobs', w.coordinator, body);
    expect(own.statusCode, own.body).toBe(202);
    // Ana, Carmen and the teacher's own.
    expect(own.json()).toMatchObject({ total: 3, teacherId: w.coordinator.id });
    await t.app.diplomaJobs.runPending();
    const id = (own.json() as { _id: string })._id;
    const file = await call('GET', `/jobs/${id}/file`, w.coordinator);
    expect(file.statusCode).toBe(200);
    expect([...readZip(file.rawPayload).keys()]).toHaveLength(3);

    const phaseBody = { examId: w.exam.id, editionId: w.edition.id, phaseId: w.phase.id };
    expect((await call('POST', '/jobs', w.coordinator, phaseBody)).statusCode).toBe(403);
    expect((await call('POST', '/jobs', w.outsider, body)).statusCode).toBe(403);
    expect((await call('POST', '/jobs', s.Ana ?? null, phaseBody)).statusCode).toBe(403);
    expect((await call('POST', '/jobs', w.staff, body)).statusCode).toBe(202);
  });

  it('marks a job failed with its reason when the phase was reopened meanwhile', async () => {
    const created = await call('POST', '/jobs', admin, {
      examId: w.exam.id,
      editionId: w.edition.id,
      phaseId: w.phase.id,
    });
    const id = (created.json() as { _id: string })._id;
    await t.database.db.update(phases).set({ state: 'open' }).where(eq(phases.id, w.phase.id));
    await t.app.diplomaJobs.runPending();
    const [row] = await t.database.db.select().from(diplomaJobs).where(eq(diplomaJobs.id, id));
    expect(row).toMatchObject({ state: 'failed', errorCode: 'RESULTS_NOT_FINAL' });
    const refused = await call('POST', '/jobs', admin, {
      examId: w.exam.id,
      editionId: w.edition.id,
      phaseId: w.phase.id,
    });
    expect(codeOf(refused)).toBe('RESULTS_NOT_FINAL');
    await closePhase();
  });

  const phaseJob = async () => {
    const created = await call('POST', '/jobs', w.staff, {
      examId: w.exam.id,
      editionId: w.edition.id,
      phaseId: w.phase.id,
    });
    expect(created.statusCode, created.body).toBe(202);
    return (created.json() as { _id: string })._id;
  };
  const jobRow = async (id: string) =>
    (await t.database.db.select().from(diplomaJobs).where(eq(diplomaJobs.id, id)))[0];

  it('makes a job once when two server processes look for work at the same moment', async () => {
    await t.app.diplomaJobs.runPending();
    const id = await phaseJob();
    // Another process of the same server (WORKERS > 1): same database, same files.
    const other = jobMaker({
      db: t.database.db,
      clock: systemClock,
      storage: createStorage(t.config),
    });
    try {
      const taken = await Promise.all([t.app.diplomaJobs.runPending(), other.runPending()]);
      expect(taken[0] + taken[1]).toBe(1);
    } finally {
      await other.close();
    }
    expect(await jobRow(id)).toMatchObject({ state: 'done', tries: 1, total: 6, done: 6 });
    const file = await call('GET', `/jobs/${id}/file`, w.staff);
    expect(file.statusCode).toBe(200);
    expect([...readZip(file.rawPayload).keys()]).toHaveLength(6);
  });

  it('lets a maker whose job another process took over change nothing of it', async () => {
    const id = await phaseJob();
    const now = new Date();
    const mine = await repo.jobs(t.database.db).claim(now, new Date(now.getTime() - 120_000));
    expect(mine?.id).toBe(id);
    const take = mine?.tries ?? 0;
    // Its beat stopped long enough for another process to take the job (a new try).
    await t.database.db
      .update(diplomaJobs)
      .set({ tries: sql`${diplomaJobs.tries} + 1` })
      .where(eq(diplomaJobs.id, id));
    const late = { state: 'failed', errorCode: 'GENERAL_ERROR', done: 1 } as const;
    expect(await repo.updateJob(t.database.db, id, late, take)).toBe(false);
    expect(await jobRow(id)).toMatchObject({ state: 'running', errorCode: null, done: 0 });
    expect(await repo.updateJob(t.database.db, id, { done: 3 }, take + 1)).toBe(true);
    expect(await jobRow(id)).toMatchObject({ state: 'running', done: 3 });
    await repo.updateJob(t.database.db, id, { state: 'failed', finishedAt: new Date() });
  });
});

describe('limits of diploma ZIPs', () => {
  const phaseBody = () => ({ examId: w.exam.id, editionId: w.edition.id, phaseId: w.phase.id });
  const runningOf = async (userId: string) =>
    (
      await t.database.db.select().from(diplomaJobs).where(eq(diplomaJobs.requestedBy, userId))
    ).filter((j) => j.state === 'queued' || j.state === 'running');

  it('runs one job per person and phase: the same request shares it, another is refused', async () => {
    await t.app.diplomaJobs.runPending();
    const teacherBody = { ...phaseBody(), teacherId: w.coordinator.id };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', '/jobs', w.coordinator, teacherBody)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 202));
    const ids = new Set(answers.map((a) => (a.json() as { _id: string })._id));
    expect(ids.size).toBe(1);
    expect(await runningOf(w.coordinator.id)).toHaveLength(1);

    // Staff: a teacher's ZIP runs, so the whole phase's must wait (and nothing is added).
    const first = await call('POST', '/jobs', w.staff, teacherBody);
    expect(first.statusCode).toBe(202);
    const other = await call('POST', '/jobs', w.staff, phaseBody());
    expect(other.statusCode).toBe(409);
    expect(codeOf(other)).toBe('JOB_ALREADY_RUNNING');
    expect(other.json().error.details).toEqual({ jobId: (first.json() as { _id: string })._id });
    expect(await runningOf(w.staff.id)).toHaveLength(1);

    // Once it is done, the next one may start.
    await t.app.diplomaJobs.runPending();
    expect((await call('POST', '/jobs', w.staff, phaseBody())).statusCode).toBe(202);
    await t.app.diplomaJobs.runPending();
  });

  it('refuses a new job while the kept archives fill their cap, expired ones removed first', async () => {
    await t.app.diplomaJobs.runPending();
    const kept = await t.database.db
      .select()
      .from(diplomaJobs)
      .where(eq(diplomaJobs.state, 'done'));
    const archive = kept.find((j) => j.fileKey !== null && j.fileBytes !== null);
    expect(archive?.fileBytes).toBeGreaterThan(0);
    // As if the archives kept took the whole DIPLOMA_JOBS_MAX_MB (default 2048).
    await t.database.db
      .update(diplomaJobs)
      .set({ fileBytes: 2048 * 1024 * 1024 })
      .where(eq(diplomaJobs.id, archive?.id ?? ''));
    const full = await call('POST', '/jobs', admin, phaseBody());
    expect(full.statusCode).toBe(503);
    expect(codeOf(full)).toBe('DIPLOMA_JOBS_STORAGE_FULL');
    expect(Number(full.headers['retry-after'])).toBeGreaterThan(0);
    expect(await runningOf(admin.id)).toHaveLength(0);

    // Once that archive is past its keeping time, it is removed to make room.
    await t.database.db
      .update(diplomaJobs)
      .set({ finishedAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(diplomaJobs.id, archive?.id ?? ''));
    const started = await call('POST', '/jobs', admin, phaseBody());
    expect(started.statusCode, started.body).toBe(202);
    const [expired] = await t.database.db
      .select()
      .from(diplomaJobs)
      .where(eq(diplomaJobs.id, archive?.id ?? ''));
    expect(expired).toMatchObject({ fileKey: null, fileBytes: null });
    await t.app.diplomaJobs.runPending();
  });
});

describe('printed facts and anonymising (issue 31)', () => {
  /** The code of the person's diploma of the phase, as stored when it was printed. */
  const storedCode = async (userId: string) => {
    const [row] = await t.database.db.select().from(diplomas).where(eq(diplomas.userId, userId));
    return row?.code;
  };

  it('confirms what an old diploma printed after the name changed, and prints it again so', async () => {
    await closePhase();
    const carmen = s.Carmen as Person;
    expect((await download(carmen, request(carmen.id))).statusCode).toBe(200);
    const code = await storedCode(carmen.id);
    expect(code).toBeDefined();
    const renamed = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/user-mgmt/users/${encodeURIComponent(carmen.email)}`,
      headers: admin.headers,
      payload: { givenName: 'Carmina', familyName: 'Popescu', school: 'Liceul Nou' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    // Printed again after the change: the same code and the same facts as the paper in hand.
    const again = await download(carmen, request(carmen.id));
    expect(again.statusCode, again.body).toBe(200);
    const text = pdfText(again.rawPayload);
    expect(text).toContain('Carmen Pop');
    expect(text).not.toContain('Carmina');
    // The check of the old paper confirms what it printed, not the profile as it is now.
    const check = await call('GET', `/verify/${code}`, null);
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json()).toMatchObject({ name: 'Carmen Pop', grade: 6 });
    expect(check.body).not.toContain('Carmina');
    expect(check.body).not.toContain('Liceul Nou');
    expect(await storedCode(carmen.id)).toBe(code);
  });

  it("exports a person's diplomas, and anonymising erases them from the public check", async () => {
    await closePhase();
    const dan = s.Dan as Person;
    expect((await download(dan, request(dan.id))).statusCode).toBe(200);
    const code = await storedCode(dan.id);
    const exportOf = (format: 'json' | 'zip') =>
      t.app.inject({
        method: 'GET',
        url: `/api/v1/user-mgmt/users/${dan.id}/personal-data?format=${format}`,
        headers: admin.headers,
      });
    const exported = await exportOf('json');
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.json().diplomas).toEqual([
      expect.objectContaining({
        code: `${code?.slice(0, 4)}-${code?.slice(4, 8)}-${code?.slice(8)}`,
        kind: 'student',
        name: 'Dan Ionescu',
        phaseName: w.phase.name,
        prize: null,
        issuedAt: expect.any(String),
        anonymisedAt: null,
      }),
    ]);
    const zip = await exportOf('zip');
    expect(zip.statusCode).toBe(200);
    const json = [...readZip(zip.rawPayload).values()][0]?.toString('utf8') ?? '';
    expect(JSON.parse(json).diplomas[0].name).toBe('Dan Ionescu');

    const anonymised = await t.app.inject({
      method: 'POST',
      url: `/api/v1/user-mgmt/users/${dan.id}/anonymise`,
      headers: admin.headers,
    });
    expect(anonymised.statusCode, anonymised.body).toBe(200);
    const check = await call('GET', `/verify/${code}`, null);
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json()).toEqual({
      code: expect.any(String),
      kind: 'student',
      name: null,
      examName: w.exam.name,
      editionName: w.edition.name,
      phaseName: w.phase.name,
      grade: null,
      school: null,
      prize: null,
      studentCount: null,
      issuedAt: expect.any(String),
      replacedAt: null,
      anonymised: true,
    });
    expect(check.body).not.toContain('Dan');
    expect(check.body).not.toContain('Ionescu');
    // Erased where it is kept, not only hidden from the answer.
    const [row] = await t.database.db.select().from(diplomas).where(eq(diplomas.userId, dan.id));
    expect(row).toMatchObject({ name: '', school: null, grade: null });
    expect(row?.anonymisedAt).toBeInstanceOf(Date);
    // No new diploma for an anonymised person, not even from an organiser.
    expect((await download(admin, request(dan.id))).statusCode).toBe(404);
  });
});

describe('verification limit', () => {
  it(`answers 429 past ${DIPLOMA_VERIFY_PER_MINUTE} look-ups a minute from one address`, async () => {
    let limited = 0;
    for (let i = 0; i <= DIPLOMA_VERIFY_PER_MINUTE + 1; i += 1) {
      const res = await call('GET', '/verify/0000-0000-0000', null);
      if (res.statusCode === 429) limited += 1;
    }
    expect(limited).toBeGreaterThan(0);
  });

  it('counts an address across server processes on one database', async () => {
    const other = await buildApp({
      config: t.config,
      database: t.database,
      mailer: createMailer(t.config, { info: () => {} }),
      storage: createStorage(t.config),
      logger: false,
    });
    await other.ready();
    try {
      const verify = (app: typeof other, remoteAddress: string) =>
        app.inject({ method: 'GET', url: `${API}/verify/0000-0000-0000`, remoteAddress });
      const half = DIPLOMA_VERIFY_PER_MINUTE / 2;
      const statuses: number[] = [];
      for (let i = 0; i < half; i += 1) {
        statuses.push((await verify(t.app, '198.51.100.7')).statusCode);
        statuses.push((await verify(other, '198.51.100.7')).statusCode);
      }
      expect(statuses.every((status) => status === 404)).toBe(true);
      // The 61st look-up of the address is refused by either process, with a time to wait.
      for (const app of [t.app, other]) {
        const refused = await verify(app, '198.51.100.7');
        expect(refused.statusCode).toBe(429);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      }
      // Another address has its own count.
      expect((await verify(other, '198.51.100.8')).statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });
});
