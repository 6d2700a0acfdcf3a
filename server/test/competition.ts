import {
  makeEdition,
  makeEnrolment,
  makeExam,
  makePhase,
  makeTestWithItems,
} from '../db/factories.js';
import type { Clock } from '../lib/clock.js';
import type { TestApp } from './app.js';

/**
 * A small competition for the API tests that cross modules (input checks, uploads, logs),
 * built with the shared factories only: a platform admin; an exam admin, a staff teacher and
 * a coordinator; one edition with an online phase and a hybrid phase, each with a published
 * test for grade 5 open all of 23 November 2026; a grade-5 student in both phases, the
 * coordinator's. Run the server on `COMPETITION_NOW` (a clock inside the tests' window).
 */

export const COMPETITION_NOW = '2026-11-23T10:00:00.000Z';
const DAY_START = new Date('2026-11-23T08:00:00.000Z');
const DAY_END = new Date('2026-11-23T20:00:00.000Z');

/** The server's clock in tests: it moves only when told to. */
export function fixedClock(iso = COMPETITION_NOW): Clock & { set(iso: string): void } {
  let now = new Date(iso);
  return { now: () => new Date(now), set: (next) => (now = new Date(next)) };
}

export type Signed = { id: string; email: string; headers: Record<string, string> };

export async function smallCompetition(t: TestApp) {
  const db = t.database.db;
  const person = async (seed: Parameters<TestApp['createUser']>[0]): Promise<Signed> => {
    const u = await t.createUser(seed);
    return { id: u.id, email: u.email, headers: await t.login(u.email, u.password) };
  };
  const admin = await person({ type: 'admin' });
  const examAdmin = await person({ type: 'teacher' });
  const staff = await person({ type: 'teacher' });
  const coordinator = await person({ type: 'teacher' });
  const exam = await makeExam(db, {
    grades: [5, 6],
    adminTeacherIds: [examAdmin.id],
    staffTeacherIds: [staff.id],
  });
  const edition = await makeEdition(db, { examId: exam.id, coordinatorIds: [coordinator.id] });
  const phaseOf = (type: 'online' | 'hybrid') =>
    makePhase(db, { editionId: edition.id, type, startDate: new Date('2026-11-20T08:00:00Z') });
  const online = await phaseOf('online');
  const hybrid = await phaseOf('hybrid');
  const window = { startDate: DAY_START, endDate: DAY_END, grades: [5] };
  const onlineTest = await makeTestWithItems(db, {
    phaseId: online.id,
    ...window,
    items: [
      { itemType: 'single', itemAnswers: ['a', 'b'], itemCorrectAnswers: [1] },
      { itemType: 'open', itemAnswers: [], itemCorrectAnswers: null },
    ],
  });
  const hybridTest = await makeTestWithItems(db, {
    phaseId: hybrid.id,
    ...window,
    items: [{ itemType: 'open', itemAnswers: [], itemCorrectAnswers: null }],
  });
  const student = await person({ type: 'student', grade: 5, teacherRef: coordinator.id });
  await makeEnrolment(db, {
    editionId: edition.id,
    studentId: student.id,
    grade: 5,
    phaseIds: [online.id, hybrid.id],
  });
  const phasePath = (phaseId: string) =>
    `/exams/${exam.id}/editions/${edition.id}/phases/${phaseId}`;
  return {
    admin,
    examAdmin,
    staff,
    coordinator,
    student,
    exam,
    edition,
    online,
    hybrid,
    onlineTest: onlineTest.test,
    openItemId: onlineTest.questions[1]?.id ?? '',
    hybridTest: hybridTest.test,
    hybridItemId: hybridTest.questions[0]?.id ?? '',
    phasePath,
  };
}
