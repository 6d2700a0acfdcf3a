import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { makeEdition, makeExam, makePhase } from '../../db/factories.js';
import { auditEvents, phaseStudents, phases } from '../../db/schema.js';
import type { TestApp } from '../../test/app.js';

/** Helpers for the exam-mgmt API tests: people with their sign-in headers, calls, a world. */

export const API = '/api/v1/exam-mgmt';
export type Headers = Record<string, string>;
type UserSeed = Parameters<TestApp['createUser']>[0];
export type Person = { id: string; email: string; headers: Headers };

export function examsKit(t: TestApp) {
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

  /**
   * A competition with an admin teacher, a staff teacher, a coordinator of its edition and an
   * outsider teacher, plus one edition (and optionally phases) made with the factories.
   */
  async function world(opts: { grades?: number[]; name?: string } = {}) {
    const [examAdmin, staff, coordinator, outsider] = await Promise.all([
      person({ type: 'teacher' }),
      person({ type: 'teacher' }),
      person({ type: 'teacher' }),
      person({ type: 'teacher' }),
    ]);
    const exam = await makeExam(t.database.db, {
      name: opts.name,
      grades: opts.grades ?? [5, 6, 7, 8],
      adminTeacherIds: [examAdmin.id],
      staffTeacherIds: [staff.id],
    });
    const edition = await makeEdition(t.database.db, {
      examId: exam.id,
      coordinatorIds: [coordinator.id],
    });
    const editionUrl = `/exams/${exam.id}/editions/${edition.id}`;
    return { exam, edition, examAdmin, staff, coordinator, outsider, editionUrl };
  }

  async function phase(editionId: string, start: string, days = 7, extra = {}) {
    const startDate = new Date(start);
    return makePhase(t.database.db, {
      editionId,
      startDate,
      endDate: new Date(startDate.getTime() + days * 86_400_000),
      ...extra,
    });
  }

  const db = t.database.db;
  /** A phase's students as `id:source:result`, sorted. */
  const participants = async (phaseId: string) =>
    (await db.select().from(phaseStudents).where(eq(phaseStudents.phaseId, phaseId)))
      .map((r) => `${r.studentId}:${r.source}:${r.result}`)
      .sort();
  const phaseRow = async (id: string) =>
    (await db.select().from(phases).where(eq(phases.id, id)))[0];
  /** The audited actions on an entity. */
  const auditActions = async (id: string) =>
    (await db.select().from(auditEvents).where(eq(auditEvents.entityId, id))).map((e) => e.action);

  return { call, q, person, world, phase, participants, phaseRow, auditActions };
}

/** The error code of an error response. */
export const codeOf = (res: LightMyRequestResponse) =>
  (res.json() as { error?: { code?: string } }).error?.code;
export const detailsOf = (res: LightMyRequestResponse) =>
  (res.json() as { error?: { details?: unknown } }).error?.details;
