import { and, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { makeEdition, makeEnrolment, makeExam, makePhase } from '../../db/factories.js';
import { phaseResults, phaseStudents, rankingState } from '../../db/schema.js';
import type { TestApp } from '../../test/app.js';

/** Helpers for the ranking-service API tests: a phase with students and their totals. */

export const API = '/api/v1/ranking-service';
const EXAM_API = '/api/v1/exam-mgmt';
export type Headers = Record<string, string>;
export type Person = { id: string; email: string; headers: Headers };

export type StudentSeed = {
  givenName: string;
  familyName: string;
  county?: string | null;
  grade?: number;
  /** The phase total (null: takes part without a result). */
  total?: number | null;
  awaitingItems?: number;
  teacherRef?: string;
  school?: string;
};

export function rankingsKit(t: TestApp) {
  const db = t.database.db;
  const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));
  const call = (method: string, url: string, headers: Headers, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url: `${API}${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  const examCall = (method: string, url: string, headers: Headers, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url: `${EXAM_API}${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  async function person(seed: Parameters<TestApp['createUser']>[0] = {}): Promise<Person> {
    const u = await t.createUser(seed);
    return { id: u.id, email: u.email, headers: await t.login(u.email, u.password) };
  }

  /**
   * A competition (grades [6, 5]: the first is 5) with an admin teacher, staff, a coordinator
   * of its edition and an outsider teacher, and one open phase.
   */
  async function world(phaseExtra: Record<string, unknown> = {}) {
    const [examAdmin, staff, coordinator, outsider] = await Promise.all([
      person({ type: 'teacher' }),
      person({ type: 'teacher' }),
      person({ type: 'teacher' }),
      person({ type: 'teacher' }),
    ]);
    const exam = await makeExam(db, {
      grades: [6, 5],
      adminTeacherIds: [examAdmin.id],
      staffTeacherIds: [staff.id],
    });
    const edition = await makeEdition(db, { examId: exam.id, coordinatorIds: [coordinator.id] });
    const start = new Date('2026-11-01T08:00:00Z');
    const phase = await makePhase(db, {
      editionId: edition.id,
      startDate: start,
      endDate: new Date(start.getTime() + 7 * 86_400_000),
      ...phaseExtra,
    });
    const phaseUrl = `/exams/${exam.id}/editions/${edition.id}/phases/${phase.id}`;
    return { exam, edition, phase, phaseUrl, examAdmin, staff, coordinator, outsider };
  }

  /** A student in the phase with their total as the results module keeps it. */
  async function student(
    w: { edition: { id: string }; phase: { id: string } },
    seed: StudentSeed,
  ): Promise<Person & { seed: StudentSeed }> {
    const p = await person({
      givenName: seed.givenName,
      familyName: seed.familyName,
      county: seed.county === undefined ? 'Cluj' : seed.county,
      grade: seed.grade ?? 5,
      ...(seed.teacherRef ? { teacherRef: seed.teacherRef } : {}),
      ...(seed.school ? { school: seed.school } : {}),
    });
    await makeEnrolment(db, {
      editionId: w.edition.id,
      studentId: p.id,
      grade: seed.grade ?? 5,
      phaseIds: [w.phase.id],
    });
    if (seed.total !== null && seed.total !== undefined) {
      await setTotal(w.phase.id, p.id, seed.total, seed.awaitingItems ?? 0);
    }
    return { ...p, seed };
  }

  /** Writes a phase total as the results module does (an insert or an update of the row). */
  async function setTotal(phaseId: string, studentId: string, points: number, awaitingItems = 0) {
    await db
      .insert(phaseResults)
      .values({ phaseId, studentId, points, awaitingItems, tests: 1 })
      .onConflictDoUpdate({
        target: [phaseResults.phaseId, phaseResults.studentId],
        set: { points, awaitingItems, updatedAt: sql`now()` },
      });
  }

  const decision = async (phaseId: string, studentId: string) =>
    (
      await db
        .select({ result: phaseStudents.result })
        .from(phaseStudents)
        .where(and(eq(phaseStudents.phaseId, phaseId), eq(phaseStudents.studentId, studentId)))
    )[0]?.result ?? null;

  const rebuiltAt = async (phaseId: string) =>
    (await db.select().from(rankingState).where(eq(rankingState.phaseId, phaseId)))[0]
      ?.computedAt ?? null;

  return { call, examCall, q, person, world, student, setTotal, decision, rebuiltAt };
}

export const codeOf = (res: LightMyRequestResponse) =>
  (res.json() as { error?: { code?: string } }).error?.code;
