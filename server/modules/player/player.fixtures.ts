import type { LightMyRequestResponse } from 'fastify';
import type { AnswerRequest } from '../../../shared/schemas/player.js';
import {
  makeEdition,
  makeEnrolment,
  makeExam,
  makePhase,
  makeTestWithItems,
  type TestItemSeed,
} from '../../db/factories.js';
import type { Clock } from '../../lib/clock.js';
import { buildTestApp, type TestApp } from '../../test/app.js';

/** Helpers for the test-player API tests: a settable clock, a competition with a test, calls. */

export const API = '/api/v1/test-player';
export type Headers = Record<string, string>;
export type Person = { id: string; email: string; headers: Headers };

/** The server's clock in tests: it moves only when told to. */
export function fakeClock(start: string) {
  let current = new Date(start).getTime();
  const clock: Clock & { set(iso: string): void; advance(seconds: number): void } = {
    now: () => new Date(current),
    set: (iso) => {
      current = new Date(iso).getTime();
    },
    advance: (seconds) => {
      current += seconds * 1000;
    },
  };
  return clock;
}

export const PHASE_START = '2026-11-23T08:00:00.000Z';
export const TEST_START = '2026-11-23T09:00:00.000Z';
export const TEST_END = '2026-11-23T12:00:00.000Z';
export const DURING = '2026-11-23T09:30:00.000Z';

/**
 * The default test: single choice (answer 1, worth 10), multiple choice (answers 0 and 2,
 * worth 20), numeric (3.5, worth 30), open (worth 40, marked by people: no automatic score).
 */
export const DEFAULT_ITEMS: TestItemSeed[] = [
  { itemType: 'single', itemAnswers: ['a', 'b', 'c'], itemCorrectAnswers: [1], score: 10 },
  {
    itemType: 'multiple',
    itemAnswers: ['a', 'b', 'c', 'd'],
    itemCorrectAnswers: [0, 2],
    score: 20,
  },
  { itemType: 'numeric', itemAnswers: [], itemCorrectAnswers: '3.5', score: 30 },
  { itemType: 'open', itemAnswers: [], itemCorrectAnswers: null, score: 40 },
];

export async function playerApp(now = DURING, env: NodeJS.ProcessEnv = {}) {
  const clock = fakeClock(now);
  const t = await buildTestApp({ clock, env: { ANSWER_GRACE_SECONDS: '10', ...env } });
  return { t, clock, kit: playerKit(t) };
}

export function playerKit(t: TestApp) {
  const db = t.database.db;
  const call = (method: string, url: string, headers: Headers, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url: `${API}${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  async function person(seed: Parameters<TestApp['createUser']>[0] = {}): Promise<Person> {
    const u = await t.createUser(seed);
    return { id: u.id, email: u.email, headers: await t.login(u.email, u.password) };
  }

  /**
   * A competition (grades 5–8) with an admin teacher, staff, an edition coordinator and an
   * outsider; an online phase; one published test for grades 5 and 6 from 09:00 to 12:00
   * lasting 60 minutes; students: `alice` and `bob` (grade 5, registered), `carol` (grade 7,
   * registered: not her test), `dan` (grade 5, enrolled but not in the phase).
   */
  async function world(
    opts: {
      items?: TestItemSeed[];
      durationMinutes?: number;
      published?: boolean;
      phaseType?: 'online' | 'hybrid';
    } = {},
  ) {
    const [examAdmin, staff, coordinator, outsider, admin] = await Promise.all([
      person({ type: 'teacher' }),
      person({ type: 'teacher' }),
      person({ type: 'teacher' }),
      person({ type: 'teacher' }),
      person({ type: 'admin' }),
    ]);
    const exam = await makeExam(db, {
      grades: [5, 6, 7, 8],
      adminTeacherIds: [examAdmin.id],
      staffTeacherIds: [staff.id],
    });
    const edition = await makeEdition(db, { examId: exam.id, coordinatorIds: [coordinator.id] });
    const phase = await makePhase(db, {
      editionId: edition.id,
      type: opts.phaseType ?? 'online',
      startDate: new Date(PHASE_START),
      endDate: new Date('2026-11-30T08:00:00.000Z'),
    });
    const { test, questions } = await makeTestWithItems(db, {
      phaseId: phase.id,
      grades: [5, 6],
      items: opts.items ?? DEFAULT_ITEMS,
      startDate: new Date(TEST_START),
      endDate: new Date(TEST_END),
      durationMinutes: opts.durationMinutes ?? 60,
      published: opts.published ?? true,
    });
    const [alice, bob, carol, dan] = await Promise.all([
      person({ type: 'student', grade: 5 }),
      person({ type: 'student', grade: 5 }),
      person({ type: 'student', grade: 7 }),
      person({ type: 'student', grade: 5 }),
    ]);
    for (const [student, grade, inPhase] of [
      [alice, 5, true],
      [bob, 5, true],
      [carol, 7, true],
      [dan, 5, false],
    ] as const) {
      await makeEnrolment(db, {
        editionId: edition.id,
        studentId: student.id,
        grade,
        phaseIds: inPhase ? [phase.id] : [],
      });
    }
    const q = {
      single: questions[0]?.id ?? '',
      multiple: questions[1]?.id ?? '',
      numeric: questions[2]?.id ?? '',
      open: questions[3]?.id ?? '',
    };
    return {
      exam,
      edition,
      phase,
      test,
      questions,
      q,
      examAdmin,
      staff,
      coordinator,
      outsider,
      admin,
      alice,
      bob,
      carol,
      dan,
    };
  }

  /** A new grade-5 student registered for a world's phase. */
  async function student(w: { edition: { id: string }; phase: { id: string } }): Promise<Person> {
    const s = await person({ type: 'student', grade: 5 });
    await makeEnrolment(db, {
      editionId: w.edition.id,
      studentId: s.id,
      grade: 5,
      phaseIds: [w.phase.id],
    });
    return s;
  }

  const base = (testId: string) => `/mytests/${testId}`;
  return {
    call,
    person,
    world,
    student,
    myTests: (who: Person) => call('GET', '/mytests', who.headers),
    start: (who: Person, testId: string, body: unknown = { termsAccepted: true }) =>
      call('POST', base(testId), who.headers, body),
    answer: (who: Person, testId: string, body: AnswerRequest | Record<string, unknown>) =>
      call('PUT', base(testId), who.headers, body),
    finish: (who: Person, testId: string) => call('PUT', `${base(testId)}/review`, who.headers),
    state: (who: Person, testId: string) => call('GET', `${base(testId)}/state`, who.headers),
    items: (who: Person, testId: string) => call('GET', `${base(testId)}/items`, who.headers),
    extraTime: (who: Person, testId: string, studentId: string, body: unknown) =>
      call('POST', `/tests/${testId}/students/${studentId}/extra-time`, who.headers, body),
    reopen: (who: Person, testId: string, studentId: string, body: unknown) =>
      call('POST', `/tests/${testId}/students/${studentId}/reopen`, who.headers, body),
  };
}

export type PlayerKit = ReturnType<typeof playerKit>;

/** The JSON body of a response, typed loosely for assertions. */
export const body = <T = Record<string, unknown>>(res: LightMyRequestResponse) => res.json() as T;
