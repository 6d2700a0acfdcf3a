import { deflateSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { makeEdition, makeExam, makePhase } from '../../db/factories.js';
import { questions } from '../../db/schema.js';
import { uuidv7 } from '../../lib/ids.js';
import type { TestApp } from '../../test/app.js';

/** Helpers for the test-mgmt API tests: people, a competition with a phase, its bank. */

export const API = '/api/v1/test-mgmt';
export type Headers = Record<string, string>;
type UserSeed = Parameters<TestApp['createUser']>[0];
export type Person = { id: string; email: string; headers: Headers };
export type Difficulty = 'low' | 'medium' | 'hard';

/** The phase every world gets: 2026-11-23 09:00 UTC for a week. */
export const PHASE_START = '2026-11-23T09:00:00.000Z';
export const PHASE_END = '2026-11-30T09:00:00.000Z';

export function testsKit(t: TestApp) {
  const call = (method: string, url: string, headers: Headers, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url: `${API}${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  async function person(seed: UserSeed = {}): Promise<Person> {
    const u = await t.createUser(seed);
    return { id: u.id, email: u.email, headers: await t.login(u.email, u.password) };
  }

  /**
   * A competition for grades 5–8 with an admin teacher, a staff teacher, a coordinator of
   * its edition and an outsider teacher; one edition with one open phase.
   */
  async function world() {
    const [examAdmin, staff, coordinator, outsider] = await Promise.all([
      person({ type: 'teacher' }),
      person({ type: 'teacher' }),
      person({ type: 'teacher' }),
      person({ type: 'teacher' }),
    ]);
    const exam = await makeExam(t.database.db, {
      name: 'Olimpiada de Matematică „Gheorghe Țițeica”',
      grades: [5, 6, 7, 8],
      adminTeacherIds: [examAdmin.id],
      staffTeacherIds: [staff.id],
    });
    const edition = await makeEdition(t.database.db, {
      examId: exam.id,
      name: 'Ediția 2026–2027',
      coordinatorIds: [coordinator.id],
    });
    const phase = await makePhase(t.database.db, {
      editionId: edition.id,
      name: 'Etapa județeană',
      startDate: new Date(PHASE_START),
      endDate: new Date(PHASE_END),
    });
    const testsUrl = `/exams/${exam.id}/editions/${edition.id}/phases/${phase.id}/tests`;
    return { exam, edition, phase, examAdmin, staff, coordinator, outsider, testsUrl };
  }

  /** Inserts `n` questions of one kind into a phase's bank; their ids. */
  async function addQuestions(
    phaseId: string,
    n: number,
    kind: {
      grade: number;
      difficulty: Difficulty;
      category?: string | null;
      discipline?: string;
      itemQ?: string;
      itemType?: 'single' | 'multiple' | 'numeric' | 'open';
      itemAnswers?: string[];
      itemCorrectAnswers?: number[] | string | null;
      imageFileId?: string | null;
      deleted?: boolean;
    },
  ): Promise<string[]> {
    if (n === 0) return [];
    const rows = Array.from({ length: n }, (_, i) => ({
      id: uuidv7(),
      phaseId,
      itemQ: kind.itemQ ?? `Întrebarea ${kind.difficulty} ${i + 1}: cât face $${i}+1$?`,
      itemCategory: kind.category === undefined ? 'Algebră' : kind.category,
      itemDiscipline: kind.discipline ?? 'Matematică',
      itemGrade: kind.grade,
      difficulty: kind.difficulty,
      itemType: kind.itemType ?? 'single',
      itemAnswers: kind.itemAnswers ?? [`${i}`, `${i + 1}`, `${i + 2}`],
      itemCorrectAnswers: kind.itemCorrectAnswers === undefined ? [1] : kind.itemCorrectAnswers,
      imageFileId: kind.imageFileId ?? null,
      deletedAt: kind.deleted ? new Date() : null,
    }));
    await t.database.db.insert(questions).values(rows);
    return rows.map((r) => r.id);
  }

  return { call, person, world, addQuestions };
}

/** The body of a valid `POST …/tests` within the kit's phase. */
export const testBody = (extra: Record<string, unknown> = {}) => ({
  name: 'Subiect clasa a V-a',
  grades: [5],
  subject: 'Matematică',
  startDate: '2026-11-24T08:00:00.000Z',
  endDate: '2026-11-24T11:00:00.000Z',
  duration: 120,
  totalScore: 100,
  easyCount: 2,
  mediumCount: 1,
  hardCount: 1,
  ...extra,
});

export const codeOf = (res: LightMyRequestResponse) =>
  (res.json() as { error?: { code?: string } }).error?.code;
export const detailsOf = (res: LightMyRequestResponse) =>
  (res.json() as { error?: { details?: unknown } }).error?.details;

/** A small PNG (a blue square with a red diagonal), made here so no binary is committed. */
export function makePng(size = 48): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = (crcTable[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const rows = Array.from({ length: size }, (_, y) => {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const isLine = Math.abs(x - y) < 3;
      row.set(isLine ? [220, 30, 30] : [40, 90, 200], 1 + x * 3);
    }
    return row;
  });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
