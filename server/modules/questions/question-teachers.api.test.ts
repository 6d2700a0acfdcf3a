import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, users } from '../../db/schema.js';
import { createStorage } from '../../lib/files/storage.js';
import { uuidv7 } from '../../lib/ids.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { codeOf, detailsOf, type Person, questionsKit } from './questions.fixtures.js';
import { resourceMgmt } from './resource-mgmt.js';

let t: TestApp;
let kit: ReturnType<typeof questionsKit>;

beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '100000' } });
  kit = questionsKit(t);
});
afterAll(async () => {
  await t.close();
});

type QuestionTeachers = { mediatorTeacher: string; gradingTeachers: string[] };
const questionTeachersOf = (res: { json(): unknown }) => {
  const { mediatorTeacher, gradingTeachers } = res.json() as QuestionTeachers;
  return { mediatorTeacher, gradingTeachers };
};
const teacher = (extra: object = {}) => t.createUser({ type: 'teacher', ...extra });

describe('POST and DELETE …/items/{questionId}/teachers (SPEC.md §5)', () => {
  it('sets the mediator, appends reviewers keeping the mediator, removes each as the client sends', async () => {
    const w = await kit.world();
    const question = await w.question();
    const url = `${w.items}/${question.id}/teachers`;
    const [m1, m2, g1, g2, g3] = await Promise.all([
      teacher(),
      teacher(),
      teacher(),
      teacher(),
      teacher(),
    ]);
    const post = (body: object) => kit.call('POST', url, w.examAdmin.headers, body);
    const del = (body: object) => kit.call('DELETE', url, w.examAdmin.headers, body);

    // The mediator page adds a mediator.
    const setMediator = await post({ mediatorTeacher: m1.id, gradingTeachers: [] });
    expect(setMediator.statusCode).toBe(200);
    expect(questionTeachersOf(setMediator)).toEqual({
      mediatorTeacher: m1.id,
      gradingTeachers: [],
    });

    // The reviewers page appends one reviewer at a time, sending the mediator and the whole list.
    expect(
      questionTeachersOf(await post({ mediatorTeacher: m1.id, gradingTeachers: [g1.id] })),
    ).toEqual({
      mediatorTeacher: m1.id,
      gradingTeachers: [g1.id],
    });
    expect(
      questionTeachersOf(await post({ mediatorTeacher: m1.id, gradingTeachers: [g1.id, g2.id] })),
    ).toEqual({ mediatorTeacher: m1.id, gradingTeachers: [g1.id, g2.id] });
    // An empty mediator keeps the one in place; a third reviewer is not refused.
    expect(
      questionTeachersOf(await post({ mediatorTeacher: '', gradingTeachers: [g3.id] })),
    ).toEqual({
      mediatorTeacher: m1.id,
      gradingTeachers: [g1.id, g2.id, g3.id],
    });
    // Another mediator replaces the first.
    expect(
      questionTeachersOf(
        await post({ mediatorTeacher: m2.id, gradingTeachers: [g1.id, g2.id, g3.id] }),
      ),
    ).toEqual({ mediatorTeacher: m2.id, gradingTeachers: [g1.id, g2.id, g3.id] });

    // Removing a reviewer sends an empty mediator and that one teacher.
    expect(
      questionTeachersOf(await del({ mediatorTeacher: '', gradingTeachers: [g2.id] })),
    ).toEqual({
      mediatorTeacher: m2.id,
      gradingTeachers: [g1.id, g3.id],
    });
    // Removing someone who is not the mediator changes nothing.
    expect(questionTeachersOf(await del({ mediatorTeacher: m1.id, gradingTeachers: [] }))).toEqual({
      mediatorTeacher: m2.id,
      gradingTeachers: [g1.id, g3.id],
    });
    // Removing the mediator sends an empty grading list.
    expect(questionTeachersOf(await del({ mediatorTeacher: m2.id, gradingTeachers: [] }))).toEqual({
      mediatorTeacher: '',
      gradingTeachers: [g1.id, g3.id],
    });

    const read = await kit.call('GET', `${w.items}/${question.id}`, w.staff.headers);
    expect(questionTeachersOf(read)).toEqual({
      mediatorTeacher: '',
      gradingTeachers: [g1.id, g3.id],
    });
    const events = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.entityId, question.id));
    // Seven changes; the call that changed nothing left no event.
    expect(events.map((e) => e.action).sort()).toEqual(
      [
        ...Array(5).fill('question.teachers.add'),
        ...Array(2).fill('question.teachers.remove'),
      ].sort(),
    );
  });

  it('takes only active teachers, and nobody as both mediator and reviewer', async () => {
    const w = await kit.world();
    const question = await w.question();
    const url = `${w.items}/${question.id}/teachers`;
    const post = (body: object) => kit.call('POST', url, w.admin.headers, body);
    const [active, other, inactive, student] = await Promise.all([
      teacher(),
      teacher(),
      teacher({ state: 'inactive' }),
      t.createUser({ type: 'student' }),
    ]);
    const deleted = await teacher({ deletedAt: new Date() });

    for (const id of [inactive.id, student.id, deleted.id, uuidv7()]) {
      const asMediator = await post({ mediatorTeacher: id, gradingTeachers: [] });
      expect(asMediator.statusCode).toBe(400);
      expect(detailsOf(asMediator)).toEqual({ mediatorTeacher: ['teacher_not_found'] });
      const asReviewer = await post({ mediatorTeacher: '', gradingTeachers: [active.id, id] });
      expect(detailsOf(asReviewer)).toEqual({ gradingTeachers: ['teacher_not_found'] });
    }
    // Nothing of the refused calls stuck (the valid reviewer named beside them included).
    const read = await kit.call('GET', `${w.items}/${question.id}`, w.admin.headers);
    expect(questionTeachersOf(read)).toEqual({ mediatorTeacher: '', gradingTeachers: [] });

    await post({ mediatorTeacher: active.id, gradingTeachers: [other.id] });
    const reviewerAsMediator = await post({ mediatorTeacher: other.id, gradingTeachers: [] });
    expect(codeOf(reviewerAsMediator)).toBe('CLIENT_ERROR');
    expect(detailsOf(reviewerAsMediator)).toEqual({ mediatorTeacher: ['invalid'] });
    const mediatorAsReviewer = await post({
      mediatorTeacher: active.id,
      gradingTeachers: [other.id, active.id],
    });
    expect(detailsOf(mediatorAsReviewer)).toEqual({ gradingTeachers: ['invalid'] });
    const both = await post({ mediatorTeacher: '', gradingTeachers: [active.id] });
    expect(detailsOf(both)).toEqual({ gradingTeachers: ['invalid'] });

    // A teacher of the question who became inactive since stays, and resending the list does not fail.
    await t.database.db.update(users).set({ state: 'inactive' }).where(eq(users.id, other.id));
    const third = await teacher();
    const again = await post({ mediatorTeacher: active.id, gradingTeachers: [other.id, third.id] });
    expect(again.statusCode).toBe(200);
    expect(questionTeachersOf(again)).toEqual({
      mediatorTeacher: active.id,
      gradingTeachers: [other.id, third.id],
    });
  });

  it('checks the body', async () => {
    const w = await kit.world();
    const question = await w.question();
    const url = `${w.items}/${question.id}/teachers`;
    for (const method of ['POST', 'DELETE']) {
      const empty = await kit.call(method, url, w.admin.headers, {
        mediatorTeacher: '',
        gradingTeachers: [],
      });
      expect(detailsOf(empty)).toEqual({ gradingTeachers: ['required'] });
      for (const body of [
        { mediatorTeacher: 'profesor' },
        { gradingTeachers: ['x'] },
        { gradingTeachers: 'abc' },
        { gradingTeachers: Array.from({ length: 21 }, () => uuidv7()) },
        { mediatorTeacher: uuidv7(), extra: 1 },
      ]) {
        const res = await kit.call(method, url, w.admin.headers, body);
        expect({ method, body, code: codeOf(res) }).toEqual({
          method,
          body,
          code: 'VALIDATION_FAILED',
        });
      }
    }
  });

  it('is for the bank managers: staff 403, others 404, unknown question 404', async () => {
    const w = await kit.world();
    const question = await w.question();
    const url = `${w.items}/${question.id}/teachers`;
    const questionTeacher = await teacher();
    const body = { mediatorTeacher: questionTeacher.id, gradingTeachers: [] };
    for (const method of ['POST', 'DELETE']) {
      expect(codeOf(await kit.call(method, url, w.staff.headers, body))).toBe(
        'OPERATION_NOT_PERMITTED',
      );
      for (const who of [w.coordinator, w.outsider, w.student] as Person[]) {
        expect((await kit.call(method, url, who.headers, body)).statusCode).toBe(404);
      }
      const unknown = `${w.items}/${uuidv7()}/teachers`;
      expect((await kit.call(method, unknown, w.examAdmin.headers, body)).statusCode).toBe(404);
    }
    const other = await kit.world();
    const foreign = await other.question();
    const crossed = `${w.items}/${foreign.id}/teachers`;
    expect((await kit.call('POST', crossed, w.examAdmin.headers, body)).statusCode).toBe(404);
    const read = await kit.call('GET', `${w.items}/${question.id}`, w.admin.headers);
    expect(questionTeachersOf(read)).toEqual({ mediatorTeacher: '', gradingTeachers: [] });
  });
});

describe('what other modules read of the bank', () => {
  it('gives questions by id, their questionTeachers, and the ones a hybrid review still lacks', async () => {
    const w = await kit.world();
    const resources = resourceMgmt({
      db: t.database.db,
      storage: createStorage(t.config),
      maxBytes: t.config.files.maxBytes,
    });
    const [ready, noMediator, oneReviewer, notInTest] = [
      await w.question(),
      await w.question({ itemType: 'numeric', itemAnswers: [], itemCorrectAnswers: '2.50' }),
      await w.question(),
      await w.question(),
    ];
    await kit.putInTest(w.phase.id, [ready, noMediator, oneReviewer]);
    const [m, g1, g2] = await Promise.all([teacher(), teacher(), teacher()]);
    const assign = (id: string, body: object) =>
      kit.call('POST', `${w.items}/${id}/teachers`, w.admin.headers, body);
    await assign(ready.id, { mediatorTeacher: m.id, gradingTeachers: [g1.id, g2.id] });
    await assign(noMediator.id, { gradingTeachers: [g1.id, g2.id] });
    await assign(oneReviewer.id, { mediatorTeacher: m.id, gradingTeachers: [g2.id] });

    const missing = await resources.questions.missingQuestionTeachers(w.phase.id);
    expect(missing).toEqual(
      expect.arrayContaining([
        { itemId: noMediator.id, field: 'mediatorTeacher' },
        { itemId: oneReviewer.id, field: 'gradingTeachers' },
      ]),
    );
    expect(missing).toHaveLength(2);

    const items = await resources.questions.questionsByIds([noMediator.id, ready.id]);
    expect(items.map((i) => i.id)).toEqual([noMediator.id, ready.id]);
    expect(items[0]).toMatchObject({ itemType: 'numeric', itemCorrectAnswers: '2.50' });
    expect(items[1]).toMatchObject({ itemCorrectAnswers: [1], isDeleted: false });

    const questionTeachers = await resources.questions.questionTeachersOf([ready.id, notInTest.id]);
    expect(questionTeachers.get(ready.id)).toEqual({
      mediatorTeacher: m.id,
      gradingTeachers: [g1.id, g2.id],
    });
    expect(questionTeachers.get(notInTest.id)).toEqual({
      mediatorTeacher: null,
      gradingTeachers: [],
    });
  });
});
