import { crc32, deflateSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { makeEdition, makeEnrolment, makeExam, makePhase } from '../../db/factories.js';
import { attempts, questions, testGrades, testItems, tests } from '../../db/schema.js';
import { uuidv7 } from '../../lib/ids.js';
import type { TestApp } from '../../test/app.js';
import { scoreEndedAttempts } from '../results/index.js';

/** Helpers for the upload-mgmt API tests: people, a competition with tests, sample files. */

export const API = '/api/v1/upload-mgmt';
export type Headers = Record<string, string>;
type UserSeed = Parameters<TestApp['createUser']>[0];
export type Person = { id: string; email: string; headers: Headers };

/** A clock the tests move: the server decides every window by it. */
export function movableClock(start: string) {
  let now = new Date(start);
  return {
    now: () => new Date(now),
    set: (iso: string) => {
      now = new Date(iso);
    },
  };
}

// ---------------------------------------------------------------------------------------
// Sample files: the bytes decide the type, whatever the name says.

/** One PNG chunk (length, type, data, CRC), for pages that must carry what an encoder drops. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function rgbPng(width: number, rows: Buffer[], level?: number) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(rows.length, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const raw = Buffer.concat(rows.map((r) => Buffer.concat([Buffer.from([0]), r])));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw, level === undefined ? {} : { level })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real PNG of `size`×`size` pixels in one colour. */
export function samplePng(size = 2, rgb: [number, number, number] = [40, 120, 200]) {
  const row = Buffer.from(Array(size).fill(rgb).flat());
  return rgbPng(size, Array(size).fill(row));
}

/**
 * A PNG of about `bytes` bytes of noise, which no compression makes smaller: the size rules
 * count the stored page, which keeps the pixels and none of the metadata.
 */
export function noisyPng(bytes: number, seed = 1) {
  const width = 64;
  const rowBytes = width * 3;
  let x = seed;
  const next = () => {
    // xorshift32: the same noise on every run.
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x & 0xff;
  };
  const rows = Array.from({ length: Math.ceil(bytes / (rowBytes + 1)) }, () =>
    Buffer.from(Array.from({ length: rowBytes }, next)),
  );
  return rgbPng(width, rows, 0);
}

/** A one-page PDF with a line of text. */
export function samplePdf(text = 'Rezolvare') {
  const stream = `BT /F1 18 Tf 40 100 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Contents 4 0 R ' +
      '/Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) body += `${String(o).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A real JPEG of `width`×`height` pixels in one colour. */
export const sampleJpeg = (width = 8, height = 8) =>
  sharp({ create: { width, height, channels: 3, background: { r: 230, g: 230, b: 220 } } })
    .jpeg()
    .toBuffer();

/** The start of a JPEG: enough for the type check, not for an image library. */
export const brokenJpeg = () =>
  Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
    Buffer.from('JFIF\0', 'latin1'),
    Buffer.alloc(64, 0x11),
    Buffer.from([0xff, 0xd9]),
  ]);

/** The header of an iPhone photo (HEIC). */
export const sampleHeic = () =>
  Buffer.concat([
    Buffer.from([0, 0, 0, 0x18]),
    Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1'),
    Buffer.alloc(64),
  ]);

/** A GIF: an image, but not one of the answer types. */
export const sampleGif = () =>
  Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(32, 1)]);

export type Part = { name: string; data: Buffer; field?: string; type?: string };

/** A multipart body with `item_0`, `item_1`, … unless a part names its field. */
export function filesForm(parts: Part[]): FormData {
  const form = new FormData();
  parts.forEach((p, i) => {
    form.append(
      p.field ?? `item_${i}`,
      new Blob([new Uint8Array(p.data)], { type: p.type ?? 'application/octet-stream' }),
      p.name,
    );
  });
  return form;
}

// ---------------------------------------------------------------------------------------
// A competition with a hybrid and an online test.

export const HYBRID_START = '2026-11-23T09:00:00.000Z';
export const HYBRID_END = '2026-11-23T12:00:00.000Z';
export const DURING = '2026-11-23T10:00:00.000Z';

export function uploadsKit(t: TestApp) {
  const db = t.database.db;
  const call = (method: string, url: string, headers: Headers, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url: `${API}${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

  async function person(seed: UserSeed = {}): Promise<Person> {
    const u = await t.createUser(seed);
    return { id: u.id, email: u.email, headers: await t.login(u.email, u.password) };
  }

  /** Questions (open items by default) and a test drawn from them, with its grades. */
  async function makeTest(
    phaseId: string,
    seed: {
      grades: number[];
      published?: boolean;
      start?: string;
      end?: string;
      items?: { itemQ: string; itemType?: 'open' | 'single'; correct?: number[] | null }[];
    },
  ) {
    const items = seed.items ?? [
      { itemQ: 'Calculați $\\frac{1}{2} + \\frac{1}{3}$.' },
      { itemQ: 'Demonstrați că $\\sqrt{2}$ este irațional.' },
      { itemQ: 'Aflați aria triunghiului cu laturile 3, 4, 5.' },
    ];
    const questionIds: string[] = [];
    for (const item of items) {
      const id = uuidv7();
      questionIds.push(id);
      const isChoice = item.itemType === 'single';
      await db.insert(questions).values({
        id,
        phaseId,
        itemQ: item.itemQ,
        itemDiscipline: 'Matematică',
        itemGrade: seed.grades[0] ?? 7,
        difficulty: 'medium',
        itemType: item.itemType ?? 'open',
        itemAnswers: isChoice ? ['2', '3', '4'] : [],
        itemCorrectAnswers: isChoice ? (item.correct ?? [1]) : null,
      });
    }
    const [test] = await db
      .insert(tests)
      .values({
        id: uuidv7(),
        phaseId,
        name: `Subiect clasa ${seed.grades.join(', ')}`,
        grades: seed.grades,
        subject: 'Matematică',
        startDate: new Date(seed.start ?? HYBRID_START),
        endDate: new Date(seed.end ?? HYBRID_END),
        durationMinutes: 120,
        totalScore: 30,
        mediumCount: items.length,
        seed: 'seed',
        published: seed.published ?? true,
      })
      .returning();
    if (!test) throw new Error('test not inserted');
    await db
      .insert(testGrades)
      .values(seed.grades.map((grade) => ({ phaseId, grade, testId: test.id })));
    await db.insert(testItems).values(
      questionIds.map((questionId, i) => ({
        testId: test.id,
        questionId,
        position: i + 1,
        score: 10,
      })),
    );
    return { test, questionIds };
  }

  /**
   * Grades 5–8: an exam admin, a staff teacher, a coordinator of the edition (Ana and Elena
   * are his students), an outsider teacher and a coordinator of another edition; a hybrid
   * phase and an online phase, each with a published test for grades 7 and 8.
   */
  async function world() {
    const [examAdmin, staff, coordinator, outsider, otherCoordinator, admin] = await Promise.all([
      person({ type: 'teacher', givenName: 'Ioana', familyName: 'Admin' }),
      person({ type: 'teacher', givenName: 'Sorin', familyName: 'Comisie' }),
      person({ type: 'teacher', givenName: 'Radu', familyName: 'Matei' }),
      person({ type: 'teacher', givenName: 'Oana', familyName: 'Străin' }),
      person({ type: 'teacher', givenName: 'Vlad', familyName: 'Altul' }),
      person({ type: 'admin' }),
    ]);
    const exam = await makeExam(db, {
      grades: [5, 6, 7, 8],
      adminTeacherIds: [examAdmin.id],
      staffTeacherIds: [staff.id],
    });
    const edition = await makeEdition(db, { examId: exam.id, coordinatorIds: [coordinator.id] });
    await makeEdition(db, { examId: exam.id, coordinatorIds: [otherCoordinator.id] });
    const hybrid = await makePhase(db, {
      editionId: edition.id,
      type: 'hybrid',
      startDate: new Date('2026-11-20T09:00:00Z'),
      endDate: new Date('2026-11-27T09:00:00Z'),
    });
    const online = await makePhase(db, {
      editionId: edition.id,
      type: 'online',
      startDate: new Date('2026-12-01T09:00:00Z'),
    });
    const hybridTest = await makeTest(hybrid.id, { grades: [7, 8] });
    const onlineTest = await makeTest(online.id, {
      grades: [7, 8],
      items: [
        { itemQ: 'Cât face 1 + 2?', itemType: 'single', correct: [1] },
        { itemQ: 'Cât face 2 + 2?', itemType: 'single', correct: [2] },
      ],
    });

    const student = async (key: string, seed: UserSeed & { grade: number }, phaseIds: string[]) => {
      const p = await person({ type: 'student', ...seed });
      await makeEnrolment(db, {
        editionId: edition.id,
        studentId: p.id,
        grade: seed.grade,
        phaseIds,
      });
      return [key, p] as const;
    };
    const students = Object.fromEntries(
      await Promise.all([
        student(
          'ana',
          { givenName: 'Ana', familyName: 'Țurcanu', grade: 7, teacherRef: coordinator.id },
          [hybrid.id, online.id],
        ),
        student('bogdan', { givenName: 'Bogdan', familyName: 'Popa', grade: 8 }, [
          hybrid.id,
          online.id,
        ]),
        student(
          'elena',
          { givenName: 'Elena', familyName: 'Stan', grade: 7, teacherRef: coordinator.id },
          [hybrid.id, online.id],
        ),
        // Grade 5: in the phase, but the test is for grades 7 and 8.
        student('carmen', { givenName: 'Carmen', familyName: 'Pop', grade: 5 }, [hybrid.id]),
        // Grade 7 but not in the phases.
        student('dan', { givenName: 'Dan', familyName: 'Ionescu', grade: 7 }, []),
      ]),
    ) as Record<'ana' | 'bogdan' | 'elena' | 'carmen' | 'dan', Person>;

    const phaseUrl = (phaseId: string) =>
      `/exams/${exam.id}/editions/${edition.id}/phases/${phaseId}`;
    return {
      exam,
      edition,
      hybrid,
      online,
      hybridTest,
      onlineTest,
      hybridUrl: `${phaseUrl(hybrid.id)}/tests/${hybridTest.test.id}`,
      onlineUrl: `${phaseUrl(online.id)}/tests/${onlineTest.test.id}`,
      examAdmin,
      staff,
      coordinator,
      outsider,
      otherCoordinator,
      admin,
      students,
    };
  }

  /**
   * An online attempt, as the player leaves it: a finished one is scored by the results
   * module from the answers stored before it (write them first).
   */
  async function makeAttempt(
    testId: string,
    studentId: string,
    state: 'in_progress' | 'finished',
    itemOrder: string[],
  ) {
    const id = uuidv7();
    await db.insert(attempts).values({
      id,
      testId,
      studentId,
      state,
      startedAt: new Date(DURING),
      deadlineAt: new Date(HYBRID_END),
      itemOrder,
      finishedAt: state === 'finished' ? new Date(DURING) : null,
      finishedBy: state === 'finished' ? 'student' : null,
    });
    if (state === 'finished') {
      await db.transaction((tx) =>
        scoreEndedAttempts(tx, [{ attemptId: id, testId, studentId }], new Date(DURING)),
      );
    }
  }

  return { call, q, person, world, makeTest, makeAttempt };
}

/** The error code of an error response. */
export const codeOf = (res: LightMyRequestResponse) =>
  (res.json() as { error?: { code?: string } }).error?.code;
export const detailsOf = (res: LightMyRequestResponse) =>
  (res.json() as { error?: { details?: unknown } }).error?.details;
