import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import {
  makeEdition,
  makeExam,
  makePhase,
  makeQuestion,
  type QuestionRow,
} from '../../db/factories.js';
import { attempts, testItems, tests } from '../../db/schema.js';
import { uuidv7 } from '../../lib/ids.js';
import type { TestApp } from '../../test/app.js';
import { type FormPart, multipartForm, onePixelPng } from '../../test/forms.js';

/** Helpers for the resource-mgmt API tests: people, a competition with a phase, calls, files. */

export const API = '/api/v1/resource-mgmt';
export type Headers = Record<string, string>;
type UserSeed = Parameters<TestApp['createUser']>[0];
export type Person = { id: string; email: string; headers: Headers };

export type Part = FormPart;

/** A multipart/form-data body and its content type. */
export const multipart = multipartForm;

/** A 1×1 greyscale PNG (signature, IHDR, IEND), optionally padded to `size` bytes. */
export function tinyPng(size = 0): Buffer {
  const png = onePixelPng();
  return size > png.length ? Buffer.concat([png, Buffer.alloc(size - png.length)]) : png;
}

/** SOI, a JFIF APP0 segment, EOI. */
export const tinyJpeg = () =>
  Buffer.from([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
    0x00, 0x01, 0x00, 0x00, 0xff, 0xd9,
  ]);

/** A GIF: an image, but not one statements may show. */
export const tinyGif = () => Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');

/** A spreadsheet with these rows under these headers. */
export async function xlsx(headers: string[], rows: (string | number | null)[][]) {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Întrebări');
  sheet.addRow(headers);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export function questionsKit(t: TestApp) {
  const db = t.database.db;
  const call = (method: string, url: string, headers: Headers, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url: `${API}${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  /** A multipart POST under `service` (resource-mgmt unless said). */
  const upload = (url: string, headers: Headers, parts: Part[], service = API) => {
    const body = multipart(parts);
    return t.app.inject({
      method: 'POST',
      url: `${service}${url}`,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
  };
  const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

  async function person(seed: UserSeed = {}): Promise<Person> {
    const u = await t.createUser(seed);
    return { id: u.id, email: u.email, headers: await t.login(u.email, u.password) };
  }

  /**
   * A competition with an admin teacher, a staff teacher, a coordinator of its edition, an
   * outsider teacher, a student and a platform admin, plus an edition and an open phase.
   */
  async function world() {
    const [admin, examAdmin, staff, coordinator, outsider, student] = await Promise.all([
      person({ type: 'admin' }),
      person({ type: 'teacher' }),
      person({ type: 'teacher' }),
      person({ type: 'teacher' }),
      person({ type: 'teacher' }),
      person({ type: 'student' }),
    ]);
    const exam = await makeExam(db, {
      adminTeacherIds: [examAdmin.id],
      staffTeacherIds: [staff.id],
    });
    const edition = await makeEdition(db, { examId: exam.id, coordinatorIds: [coordinator.id] });
    const phase = await makePhase(db, { editionId: edition.id });
    const items = `/exams/${exam.id}/editions/${edition.id}/phases/${phase.id}/items`;
    const question = (seed: Partial<Parameters<typeof makeQuestion>[1]> = {}) =>
      makeQuestion(db, { phaseId: phase.id, ...seed });
    return {
      admin,
      examAdmin,
      staff,
      coordinator,
      outsider,
      student,
      exam,
      edition,
      phase,
      items,
      question,
    };
  }

  /** Draws these questions into a new test of their phase (rows written directly). */
  async function putInTest(phaseId: string, questions: QuestionRow[]) {
    const [test] = await db
      .insert(tests)
      .values({
        id: uuidv7(),
        phaseId,
        name: 'Test',
        grades: [5],
        subject: 'Matematică',
        startDate: new Date('2026-11-23T09:00:00Z'),
        endDate: new Date('2026-11-23T12:00:00Z'),
        durationMinutes: 60,
        totalScore: 10 * questions.length,
        seed: 'seed',
      })
      .returning();
    if (!test) throw new Error('test not inserted');
    await db.insert(testItems).values(
      questions.map((question, i) => ({
        testId: test.id,
        questionId: question.id,
        position: i + 1,
        score: 10,
      })),
    );
    return test;
  }

  /** A student's attempt on a test (started now). */
  async function startAttempt(testId: string, studentId: string, itemOrder: string[]) {
    await db.insert(attempts).values({
      id: uuidv7(),
      testId,
      studentId,
      startedAt: new Date(),
      deadlineAt: new Date(Date.now() + 3_600_000),
      itemOrder,
    });
  }

  return { call, upload, q, person, world, putInTest, startAttempt };
}

/** The error code of an error response. */
export const codeOf = (res: LightMyRequestResponse) =>
  (res.json() as { error?: { code?: string } }).error?.code;
export const detailsOf = (res: LightMyRequestResponse) =>
  (res.json() as { error?: { details?: unknown } }).error?.details;
