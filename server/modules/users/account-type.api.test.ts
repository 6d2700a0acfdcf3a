import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, editionStudents, editions, exams } from '../../db/schema.js';
import { uuidv7 } from '../../lib/ids.js';
import { buildTestApp, errorCode, type TestApp } from '../../test/app.js';

const API = '/api/v1/user-mgmt';
let t: TestApp;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await buildTestApp();
  const a = await t.createUser({ type: 'admin' });
  admin = await t.login(a.email, a.password);
});
afterAll(async () => {
  await t.close();
});

const setType = (email: string, type: string, headers: Record<string, string>) =>
  t.app.inject({
    method: 'PUT',
    url: `${API}/users/${encodeURIComponent(email)}/type`,
    payload: { type },
    headers,
  });

describe('PUT /users/{email}/type', () => {
  it('lets an admin make a student account a teacher one, which then registers as a teacher', async () => {
    const teacher = await t.createUser({ type: 'teacher', teacherCode: 'PROF-A' });
    const wrong = await t.createUser({
      email: 'profesor.gresit@example.ro',
      teacherRef: teacher.id,
    });
    const res = await setType(wrong.email, 'teacher', admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ type: 'teacher', registered: false, grade: null });

    const own = await t.login(wrong.email, wrong.password);
    const registered = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth-service/auth/register',
      headers: own,
      payload: {
        givenName: 'Ioan',
        familyName: 'Mureșan',
        county: 'Cluj',
        city: 'Cluj-Napoca',
        school: 'Liceul Teoretic',
        discipline: 'Matematică',
        teacherCode: 'IOAN-M',
      },
    });
    expect(registered.statusCode).toBe(200);
    expect(registered.json()).toMatchObject({ type: 'teacher', teacherCode: 'IOAN-M' });

    const audit = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, wrong.id));
    expect(audit.find((e) => e.action === 'user.type.change')).toMatchObject({
      before: { type: 'student', registered: true },
      after: { type: 'teacher', registered: false },
    });
  });

  it('refuses an account with enrolments or students, admins, other callers and bad types', async () => {
    const enrolled = await t.createUser();
    const examId = uuidv7();
    const editionId = uuidv7();
    await t.database.db.insert(exams).values({
      id: examId,
      name: 'Olimpiada',
      nameNormalized: 'olimpiada',
      subject: 'Matematică',
    });
    await t.database.db.insert(editions).values({ id: editionId, examId, name: '2026' });
    await t.database.db.insert(editionStudents).values({ editionId, studentId: enrolled.id });
    expect(errorCode(await setType(enrolled.email, 'teacher', admin))).toBe('USER_HAS_RESULTS');

    const withStudents = await t.createUser({ type: 'teacher' });
    await t.createUser({ teacherRef: withStudents.id });
    expect(errorCode(await setType(withStudents.email, 'student', admin))).toBe('USER_HAS_RESULTS');

    const other = await t.createUser({ type: 'admin' });
    expect(errorCode(await setType(other.email, 'teacher', admin))).toBe('CLIENT_ERROR');
    expect(errorCode(await setType(enrolled.email, 'admin', admin))).toBe('VALIDATION_FAILED');

    const teacher = await t.createUser({ type: 'teacher' });
    const asTeacher = await t.login(teacher.email, teacher.password);
    const student = await t.createUser({ teacherRef: teacher.id });
    expect(errorCode(await setType(student.email, 'teacher', asTeacher))).toBe(
      'OPERATION_NOT_PERMITTED',
    );
    expect(errorCode(await setType('nimeni@example.ro', 'teacher', admin))).toBe('NOT_FOUND');
    // Nothing changed.
    const still = await t.app.inject({ url: `${API}/users/${enrolled.id}`, headers: admin });
    expect(still.json()).toMatchObject({ type: 'student', registered: true });
  });
});
