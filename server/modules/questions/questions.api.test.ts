import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeEdition, makeExam, makePhase } from '../../db/factories.js';
import { answers, auditEvents, phases, questions } from '../../db/schema.js';
import { uuidv7 } from '../../lib/ids.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { codeOf, detailsOf, questionsKit } from './questions.fixtures.js';

let t: TestApp;
let kit: ReturnType<typeof questionsKit>;

beforeAll(async () => {
  t = await buildTestApp({ env: { AUTH_RATE_LIMIT_PER_MINUTE: '100000' } });
  kit = questionsKit(t);
});
afterAll(async () => {
  await t.close();
});

const single = (extra: object = {}) => ({
  itemQ: 'Cât face $2 + 2$?',
  itemCategory: 'Algebră',
  itemDiscipline: 'Matematică',
  itemGrade: 5,
  difficulty: 'low',
  itemType: 'single',
  itemAnswers: ['3', '4', '5'],
  itemCorrectAnswers: [1],
  ...extra,
});

type Issue = { code: string; path: (string | number)[] };
const issuesOf = (res: { json(): unknown }) =>
  ((res.json() as { error: { details: Issue[] } }).error.details ?? []).map(
    (i) => `${i.path.join('.')}:${i.code}`,
  );
const auditOf = async (entityId: string) =>
  t.database.db.select().from(auditEvents).where(eq(auditEvents.entityId, entityId));

describe('POST …/items', () => {
  it('adds a question for exam admins and platform admins, with its answers', async () => {
    const w = await kit.world();
    const res = await kit.call('POST', w.items, w.examAdmin.headers, single());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      examId: w.exam.id,
      editionId: w.edition.id,
      phaseId: w.phase.id,
      itemQ: 'Cât face $2 + 2$?',
      itemCategory: 'Algebră',
      itemDiscipline: 'Matematică',
      itemGrade: 5,
      difficulty: 'low',
      itemType: 'single',
      itemAnswers: ['3', '4', '5'],
      itemCorrectAnswers: [1],
      imageFileId: null,
      images: [],
      mediatorTeacher: '',
      gradingTeachers: [],
      inTest: false,
    });

    const numeric = await kit.call(
      'POST',
      w.items,
      w.admin.headers,
      single({
        itemType: 'numeric',
        itemAnswers: [],
        itemCorrectAnswers: '3,5',
        itemGrade: 99,
        difficulty: 'hard',
      }),
    );
    expect(numeric.statusCode).toBe(201);
    expect(numeric.json()).toMatchObject({ itemCorrectAnswers: '3.5', itemGrade: 99 });
    const asNumber = await kit.call(
      'POST',
      w.items,
      w.admin.headers,
      single({ itemType: 'numeric', itemAnswers: [], itemCorrectAnswers: -7 }),
    );
    expect(asNumber.json().itemCorrectAnswers).toBe('-7');

    const open = await kit.call(
      'POST',
      w.items,
      w.admin.headers,
      single({ itemType: 'open', itemAnswers: undefined, itemCorrectAnswers: undefined }),
    );
    expect(open.statusCode).toBe(201);
    expect(open.json()).toMatchObject({ itemAnswers: [], itemCorrectAnswers: null });

    const multiple = await kit.call(
      'POST',
      w.items,
      w.admin.headers,
      single({ itemType: 'multiple', itemCorrectAnswers: [0, 2], itemCategory: '' }),
    );
    expect(multiple.json()).toMatchObject({ itemCorrectAnswers: [0, 2], itemCategory: null });
  });

  it('refuses answers that do not fit the type, with the field in the details', async () => {
    const w = await kit.world();
    const cases: [object, string][] = [
      [{ itemCorrectAnswers: [0, 1] }, 'itemCorrectAnswers:invalid'],
      [{ itemCorrectAnswers: [3] }, 'itemCorrectAnswers:invalid'],
      [{ itemCorrectAnswers: [] }, 'itemCorrectAnswers:required'],
      [{ itemCorrectAnswers: null }, 'itemCorrectAnswers:required'],
      [{ itemAnswers: ['doar una'], itemCorrectAnswers: [0] }, 'itemAnswers:required'],
      [{ itemType: 'multiple', itemCorrectAnswers: [1, 1] }, 'itemCorrectAnswers:invalid'],
      [{ itemType: 'numeric', itemCorrectAnswers: '4' }, 'itemAnswers:invalid'],
      [
        { itemType: 'numeric', itemAnswers: [], itemCorrectAnswers: 'patru' },
        'itemCorrectAnswers:not_number',
      ],
      [
        { itemType: 'numeric', itemAnswers: [], itemCorrectAnswers: '' },
        'itemCorrectAnswers:required',
      ],
      [
        { itemType: 'open', itemAnswers: [], itemCorrectAnswers: '4' },
        'itemCorrectAnswers:invalid',
      ],
      [{ itemType: 'open', itemCorrectAnswers: null }, 'itemAnswers:invalid'],
      [{ itemAnswers: ['3', '  ', '5'] }, 'itemAnswers.1:required'],
      [{ itemGrade: 13 }, 'itemGrade:invalid'],
      [{ difficulty: 'easy' }, 'difficulty:invalid'],
      [{ itemType: 'essay' }, 'itemType:invalid'],
      [{ itemQ: '   ' }, 'itemQ:required'],
      [{ itemQ: 'x'.repeat(20_001) }, 'itemQ:too_long'],
      [{ itemDiscipline: undefined }, 'itemDiscipline:required'],
      [{ itemCategory: 'c'.repeat(101) }, 'itemCategory:too_long'],
      [{ itemAnswers: Array.from({ length: 21 }, (_, i) => `v${i}`) }, 'itemAnswers:too_long'],
      [{ imageFileId: 'not-an-id' }, 'imageFileId:invalid'],
    ];
    for (const [extra, issue] of cases) {
      const res = await kit.call('POST', w.items, w.examAdmin.headers, single(extra));
      expect({ extra, status: res.statusCode, code: codeOf(res) }).toMatchObject({
        status: 400,
        code: 'VALIDATION_FAILED',
      });
      expect({ extra, issues: issuesOf(res) }).toMatchObject({
        issues: expect.arrayContaining([issue]),
      });
    }
    // A grade typed as text is refused on its field (the code depends on the error handler).
    const textGrade = await kit.call(
      'POST',
      w.items,
      w.examAdmin.headers,
      single({ itemGrade: '5' }),
    );
    expect(issuesOf(textGrade)).toEqual([expect.stringMatching(/^itemGrade:/)]);
    const unknown = await kit.call('POST', w.items, w.examAdmin.headers, single({ score: 5 }));
    expect(codeOf(unknown)).toBe('VALIDATION_FAILED');
    expect(await kit.call('GET', `${w.items}/count`, w.examAdmin.headers)).toMatchObject({
      statusCode: 200,
    });
    expect((await kit.call('GET', `${w.items}/count`, w.examAdmin.headers)).json()).toEqual({
      count: 0,
    });
  });

  it('answers malformed JSON with a 400 and nothing stored', async () => {
    const w = await kit.world();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/resource-mgmt${w.items}`,
      headers: { ...w.examAdmin.headers, 'content-type': 'application/json' },
      payload: '{"itemQ": "x",',
    });
    expect(res.statusCode).toBe(400);
    expect(codeOf(res)).toBe('CLIENT_ERROR');
  });

  it('is for the bank managers only: staff 403, anyone else 404, guests 401', async () => {
    const w = await kit.world();
    expect(codeOf(await kit.call('POST', w.items, w.staff.headers, single()))).toBe(
      'OPERATION_NOT_PERMITTED',
    );
    for (const who of [w.coordinator, w.outsider, w.student]) {
      const res = await kit.call('POST', w.items, who.headers, single());
      expect({ who: who.email, status: res.statusCode }).toEqual({ who: who.email, status: 404 });
    }
    expect((await kit.call('POST', w.items, {}, single())).statusCode).toBe(401);

    // An exam admin of another competition does not reach this one through its ids.
    const other = await kit.world();
    const crossed = `/exams/${other.exam.id}/editions/${w.edition.id}/phases/${w.phase.id}/items`;
    expect((await kit.call('POST', crossed, other.examAdmin.headers, single())).statusCode).toBe(
      404,
    );
    const wrongPhase = `/exams/${w.exam.id}/editions/${w.edition.id}/phases/${other.phase.id}/items`;
    expect((await kit.call('POST', wrongPhase, w.examAdmin.headers, single())).statusCode).toBe(
      404,
    );
    expect((await kit.call('GET', `${w.items}/count`, w.admin.headers)).json()).toEqual({
      count: 0,
    });
  });

  it('refuses changes to the bank of a closed phase', async () => {
    const w = await kit.world();
    const existing = await w.question();
    await t.database.db.update(phases).set({ state: 'closed' }).where(eq(phases.id, w.phase.id));
    const res = await kit.call('POST', w.items, w.examAdmin.headers, single());
    expect(res.statusCode).toBe(409);
    expect(codeOf(res)).toBe('PHASE_CLOSED');
    const patch = await kit.call('PATCH', `${w.items}/${existing.id}`, w.examAdmin.headers, {
      itemQ: 'Alt enunț',
    });
    expect(codeOf(patch)).toBe('PHASE_CLOSED');
    const del = await kit.call('DELETE', `${w.items}/${existing.id}`, w.examAdmin.headers);
    expect(codeOf(del)).toBe('PHASE_CLOSED');
    const bulk = await kit.call('DELETE', w.items, w.examAdmin.headers, { ids: [existing.id] });
    expect(codeOf(bulk)).toBe('PHASE_CLOSED');
    // Reading stays possible.
    expect((await kit.call('GET', w.items, w.staff.headers)).statusCode).toBe(200);
  });
});

describe('GET …/items and …/items/count', () => {
  async function bank() {
    const w = await kit.world();
    const rows = [];
    // 12 questions: statements sort as Q01…Q12; categories and grades vary.
    for (let i = 1; i <= 12; i++) {
      rows.push(
        await w.question({
          itemQ: `Q${String(i).padStart(2, '0')}`,
          itemCategory: i % 3 === 0 ? 'Geometrie' : 'Algebră',
          itemDiscipline: i % 4 === 0 ? 'Informatică' : 'Matematică',
          itemGrade: i % 2 === 0 ? 6 : 5,
        }),
      );
    }
    return { w, rows };
  }

  it('pages by 10 in itemQ order, with the count', async () => {
    const { w, rows } = await bank();
    // Noise that must never show: a deleted question and another phase's question.
    await w.question({ itemQ: 'A deleted', deletedAt: new Date() });
    const otherPhase = await makePhase(t.database.db, {
      editionId: w.edition.id,
      startDate: new Date('2027-02-01T09:00:00Z'),
    });
    await w.question({ phaseId: otherPhase.id, itemQ: 'A other phase' });

    const first = await kit.call('GET', w.items, w.examAdmin.headers);
    expect(first.statusCode).toBe(200);
    const firstPage = first.json() as { _id: string; itemQ: string }[];
    expect(firstPage.map((q) => q.itemQ)).toEqual(rows.slice(0, 10).map((r) => r.itemQ));
    const second = await kit.call(
      'GET',
      `${w.items}?filter=${kit.q({ skip: 10, limit: 10 })}`,
      w.examAdmin.headers,
    );
    expect((second.json() as { itemQ: string }[]).map((q) => q.itemQ)).toEqual(['Q11', 'Q12']);
    expect((await kit.call('GET', `${w.items}/count`, w.examAdmin.headers)).json()).toEqual({
      count: 12,
    });
    const desc = await kit.call(
      'GET',
      `${w.items}?filter=${kit.q({ order: 'itemQ DESC', limit: 2 })}`,
      w.examAdmin.headers,
    );
    expect((desc.json() as { itemQ: string }[]).map((q) => q.itemQ)).toEqual(['Q12', 'Q11']);
  });

  it('filters category and discipline case-insensitively and grade only when given', async () => {
    const { w } = await bank();
    const list = async (where: object) =>
      (
        (
          await kit.call(
            'GET',
            `${w.items}?filter=${kit.q({ where, limit: 100 })}`,
            w.examAdmin.headers,
          )
        ).json() as { itemQ: string }[]
      ).map((q) => q.itemQ);
    const count = async (where: object) =>
      (await kit.call('GET', `${w.items}/count?where=${kit.q(where)}`, w.examAdmin.headers)).json()
        .count;

    const geometry = { and: [{ itemCategory: { ilike: '%geometrie%' } }] };
    expect(await list(geometry)).toEqual(['Q03', 'Q06', 'Q09', 'Q12']);
    expect(await count(geometry)).toBe(4);
    // LoopBack's spelling of the same thing.
    const loopback = {
      and: [
        { itemCategory: { like: '%GEOM%', options: 'i' } },
        { itemDiscipline: { like: '%informatică%', options: 'i' } },
      ],
    };
    expect(await list(loopback)).toEqual(['Q12']);
    expect(await count(loopback)).toBe(1);
    // A cleared grade filter means every grade; a given one filters.
    const anyGrade = { and: [{ itemDiscipline: { ilike: '%mate%' } }, { itemGrade: '' }] };
    expect(await count(anyGrade)).toBe(9);
    expect(await count({ itemGrade: null })).toBe(12);
    expect(await list({ and: [{ itemCategory: { ilike: '%alg%' } }, { itemGrade: 6 }] })).toEqual([
      'Q02',
      'Q04',
      'Q08',
      'Q10',
    ]);
    expect(await count({ itemGrade: '6' })).toBe(6);
  });

  it('returns only the asked fields, always with _id', async () => {
    const { w, rows } = await bank();
    const res = await kit.call(
      'GET',
      `${w.items}?filter=${kit.q({ fields: ['itemQ', 'itemGrade'], limit: 1 })}`,
      w.examAdmin.headers,
    );
    expect(res.json()).toEqual([{ _id: rows[0]?.id, itemQ: 'Q01', itemGrade: 5 }]);
  });

  it('refuses unknown fields, bad operators and malformed JSON', async () => {
    const w = await kit.world();
    const bad: [string, string][] = [
      [`?filter=${kit.q({ where: { score: 5 } })}`, 'where.score:invalid'],
      [
        `?filter=${kit.q({ where: { itemCorrectAnswers: [1] } })}`,
        'where.itemCorrectAnswers:invalid',
      ],
      [
        `?filter=${kit.q({ where: { itemGrade: { ilike: '5' } } })}`,
        'where.itemGrade.ilike:invalid',
      ],
      [`?filter=${kit.q({ order: 'gradingTeachers ASC' })}`, 'order:invalid'],
      [`?filter=${kit.q({ fields: ['secret'] })}`, 'fields.0:invalid'],
      [`?filter=${kit.q({ limit: 5000 })}`, 'limit:invalid'],
      [`?filter=${kit.q({ page: 2 })}`, 'page:invalid'],
      ['?filter=%7Bnot%20json', 'filter:invalid'],
      // Unknown query parameters are refused as a whole (no single field to point at).
      ['?other=1', ':invalid'],
    ];
    for (const [query, issue] of bad) {
      const res = await kit.call('GET', `${w.items}${query}`, w.examAdmin.headers);
      expect({ query, status: res.statusCode, code: codeOf(res) }).toEqual({
        query,
        status: 400,
        code: 'VALIDATION_FAILED',
      });
      expect({ query, issues: issuesOf(res) }).toEqual({
        query,
        issues: expect.arrayContaining([issue]),
      });
    }
    const count = await kit.call(
      'GET',
      `${w.items}/count?where=${kit.q({ x: 1 })}`,
      w.staff.headers,
    );
    expect(issuesOf(count)).toEqual(['where.x:invalid']);
  });

  it('shows staff the bank without correct answers; nobody else sees it', async () => {
    const w = await kit.world();
    const question = await w.question({ itemCorrectAnswers: [2] });
    const numeric = await w.question({
      itemType: 'numeric',
      itemAnswers: [],
      itemCorrectAnswers: '42',
    });
    const asStaff = (await kit.call('GET', w.items, w.staff.headers)).json() as {
      itemCorrectAnswers: unknown;
    }[];
    expect(asStaff).toHaveLength(2);
    expect(asStaff.map((q) => q.itemCorrectAnswers)).toEqual([null, null]);
    const picked = await kit.call(
      'GET',
      `${w.items}?filter=${kit.q({ fields: { itemCorrectAnswers: true } })}`,
      w.staff.headers,
    );
    expect(
      (picked.json() as { itemCorrectAnswers: unknown }[]).map((q) => q.itemCorrectAnswers),
    ).toEqual([null, null]);
    const one = await kit.call('GET', `${w.items}/${numeric.id}`, w.staff.headers);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ itemQ: numeric.itemQ, itemCorrectAnswers: null });
    expect(one.body).not.toContain('42"');

    const asAdmin = (
      await kit.call('GET', `${w.items}/${question.id}`, w.examAdmin.headers)
    ).json();
    expect(asAdmin.itemCorrectAnswers).toEqual([2]);
    expect(
      (await kit.call('GET', `${w.items}/${numeric.id}`, w.admin.headers)).json()
        .itemCorrectAnswers,
    ).toBe('42');

    for (const who of [w.coordinator, w.outsider, w.student]) {
      for (const url of [w.items, `${w.items}/count`, `${w.items}/${question.id}`]) {
        const res = await kit.call('GET', url, who.headers);
        expect({ url, status: res.statusCode, code: codeOf(res) }).toEqual({
          url,
          status: 404,
          code: 'NOT_FOUND',
        });
      }
    }
  });
});

describe('GET …/items/{questionId}', () => {
  it('answers 404 for a question of another phase, a deleted one or an unknown id', async () => {
    const w = await kit.world();
    const otherPhase = await makePhase(t.database.db, {
      editionId: w.edition.id,
      startDate: new Date('2027-02-01T09:00:00Z'),
    });
    const elsewhere = await w.question({ phaseId: otherPhase.id });
    const deleted = await w.question({ deletedAt: new Date() });
    for (const id of [elsewhere.id, deleted.id, uuidv7()]) {
      const res = await kit.call('GET', `${w.items}/${id}`, w.admin.headers);
      expect(res.statusCode).toBe(404);
    }
    expect(codeOf(await kit.call('GET', `${w.items}/not-a-uuid`, w.admin.headers))).toBe(
      'VALIDATION_FAILED',
    );
  });
});

describe('PATCH …/items/{questionId}', () => {
  it('changes what is sent and checks the whole result', async () => {
    const w = await kit.world();
    const question = await w.question();
    const url = `${w.items}/${question.id}`;
    const res = await kit.call('PATCH', url, w.examAdmin.headers, {
      itemQ: 'Fie $\\frac{1}{2}$. Cât face dublul?',
      difficulty: 'medium',
      itemCategory: '',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      itemQ: 'Fie $\\frac{1}{2}$. Cât face dublul?',
      difficulty: 'medium',
      itemCategory: null,
      itemAnswers: question.itemAnswers,
      itemCorrectAnswers: [1],
    });

    // Switching to numeric with the old options left in is refused on the fields.
    const half = await kit.call('PATCH', url, w.examAdmin.headers, { itemType: 'numeric' });
    expect(half.statusCode).toBe(400);
    expect(codeOf(half)).toBe('CLIENT_ERROR');
    expect(detailsOf(half)).toEqual({
      itemAnswers: ['invalid'],
      itemCorrectAnswers: ['not_number'],
    });
    const whole = await kit.call('PATCH', url, w.examAdmin.headers, {
      itemType: 'numeric',
      itemAnswers: [],
      itemCorrectAnswers: '1',
    });
    expect(whole.json()).toMatchObject({ itemType: 'numeric', itemCorrectAnswers: '1' });
    const outOfRange = await kit.call('PATCH', url, w.examAdmin.headers, {
      itemType: 'single',
      itemAnswers: ['a', 'b'],
      itemCorrectAnswers: [2],
    });
    expect(detailsOf(outOfRange)).toEqual({ itemCorrectAnswers: ['invalid'] });
    const unknown = await kit.call('PATCH', url, w.examAdmin.headers, { inTest: false });
    expect(codeOf(unknown)).toBe('VALIDATION_FAILED');
    const badGrade = await kit.call('PATCH', url, w.examAdmin.headers, { itemGrade: -1 });
    expect(issuesOf(badGrade)).toEqual(['itemGrade:invalid']);
  });

  it('is refused to staff (403) and out of scope (404)', async () => {
    const w = await kit.world();
    const question = await w.question();
    const url = `${w.items}/${question.id}`;
    expect(codeOf(await kit.call('PATCH', url, w.staff.headers, { itemQ: 'x' }))).toBe(
      'OPERATION_NOT_PERMITTED',
    );
    for (const who of [w.coordinator, w.outsider, w.student]) {
      expect((await kit.call('PATCH', url, who.headers, { itemQ: 'x' })).statusCode).toBe(404);
    }
    const [row] = await t.database.db.select().from(questions).where(eq(questions.id, question.id));
    expect(row?.itemQ).toBe(question.itemQ);
  });

  it('no longer changes a question once a student has met it', async () => {
    const w = await kit.world();
    const [started, answered, drawn] = [await w.question(), await w.question(), await w.question()];
    const test = await kit.putInTest(w.phase.id, [started, drawn]);
    await kit.startAttempt(test.id, w.student.id, [started.id, drawn.id]);
    const res = await kit.call('PATCH', `${w.items}/${started.id}`, w.examAdmin.headers, {
      itemQ: 'Enunț schimbat',
    });
    expect(res.statusCode).toBe(409);
    expect(codeOf(res)).toBe('TEST_HAS_ATTEMPTS');

    // A hybrid answer (no attempt) counts too.
    const hybrid = await kit.putInTest(w.phase.id, [answered]);
    await t.database.db.insert(answers).values({
      id: uuidv7(),
      testId: hybrid.id,
      studentId: w.student.id,
      questionId: answered.id,
    });
    expect(
      codeOf(
        await kit.call('PATCH', `${w.items}/${answered.id}`, w.examAdmin.headers, {
          itemQ: 'Alt enunț',
        }),
      ),
    ).toBe('TEST_HAS_ATTEMPTS');

    // A question drawn into a test nobody has started can still be corrected.
    const other = await kit.world();
    const fresh = await other.question();
    await kit.putInTest(other.phase.id, [fresh]);
    const fix = await kit.call('PATCH', `${other.items}/${fresh.id}`, other.examAdmin.headers, {
      itemQ: 'Enunț corectat',
    });
    expect(fix.statusCode).toBe(200);
    expect(fix.json()).toMatchObject({ itemQ: 'Enunț corectat', inTest: true });
  });
});

describe('DELETE …/items/{questionId}', () => {
  it('deletes a question no test drew, audited; QUESTION_IN_TEST otherwise', async () => {
    const w = await kit.world();
    const [free, used] = [await w.question(), await w.question()];
    await kit.putInTest(w.phase.id, [used]);

    const res = await kit.call('DELETE', `${w.items}/${free.id}`, w.examAdmin.headers);
    expect(res.statusCode).toBe(204);
    expect((await kit.call('GET', `${w.items}/${free.id}`, w.examAdmin.headers)).statusCode).toBe(
      404,
    );
    const [row] = await t.database.db.select().from(questions).where(eq(questions.id, free.id));
    expect(row?.deletedAt).toBeInstanceOf(Date);
    const events = await auditOf(free.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      action: 'question.delete',
      entityType: 'question',
      actorId: w.examAdmin.id,
      before: expect.objectContaining({ phaseId: w.phase.id, itemQ: free.itemQ }),
    });
    expect(
      (await kit.call('DELETE', `${w.items}/${free.id}`, w.examAdmin.headers)).statusCode,
    ).toBe(404);

    const refused = await kit.call('DELETE', `${w.items}/${used.id}`, w.admin.headers);
    expect(refused.statusCode).toBe(409);
    expect(codeOf(refused)).toBe('QUESTION_IN_TEST');
    expect(await auditOf(used.id)).toEqual([]);
    const list = await kit.call('GET', w.items, w.admin.headers);
    expect(list.json()).toEqual([expect.objectContaining({ _id: used.id, inTest: true })]);
  });

  it('is refused to staff (403) and out of scope (404)', async () => {
    const w = await kit.world();
    const question = await w.question();
    const url = `${w.items}/${question.id}`;
    expect(codeOf(await kit.call('DELETE', url, w.staff.headers))).toBe('OPERATION_NOT_PERMITTED');
    for (const who of [w.coordinator, w.outsider, w.student]) {
      expect((await kit.call('DELETE', url, who.headers)).statusCode).toBe(404);
    }
    expect((await kit.call('GET', url, w.admin.headers)).statusCode).toBe(200);
  });
});

describe('DELETE …/items (bulk)', () => {
  it('deletes what it may and answers the ids it did not delete', async () => {
    const w = await kit.world();
    const [a, b, inTest, alsoInTest] = [
      await w.question(),
      await w.question(),
      await w.question(),
      await w.question(),
    ];
    await kit.putInTest(w.phase.id, [inTest, alsoInTest]);
    const other = await kit.world();
    const foreign = await other.question();
    const unknown = uuidv7();

    const res = await kit.call('DELETE', w.items, w.examAdmin.headers, {
      ids: [a.id, inTest.id, foreign.id, b.id.toUpperCase(), unknown, alsoInTest.id, a.id],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ids: [inTest.id, foreign.id, unknown, alsoInTest.id] });
    const live = await t.database.db
      .select({ id: questions.id })
      .from(questions)
      .where(and(eq(questions.phaseId, w.phase.id)));
    expect(live).toHaveLength(4);
    expect((await kit.call('GET', `${w.items}/count`, w.examAdmin.headers)).json()).toEqual({
      count: 2,
    });
    expect((await kit.call('GET', `${other.items}/count`, other.examAdmin.headers)).json()).toEqual(
      { count: 1 },
    );
    for (const q of [a, b]) {
      expect((await auditOf(q.id)).map((e) => e.action)).toEqual(['question.delete']);
    }
    expect(await auditOf(inTest.id)).toEqual([]);

    // Nothing left to refuse: an empty answer means all were deleted.
    const c = await w.question();
    expect((await kit.call('DELETE', w.items, w.admin.headers, { ids: [c.id] })).json()).toEqual({
      ids: [],
    });
  });

  it('checks the body and the rights', async () => {
    const w = await kit.world();
    const question = await w.question();
    for (const body of [
      {},
      { ids: [] },
      { ids: ['x'] },
      { ids: 'abc' },
      { ids: [question.id], all: true },
    ]) {
      const res = await kit.call('DELETE', w.items, w.examAdmin.headers, body);
      expect({ body, code: codeOf(res) }).toEqual({ body, code: 'VALIDATION_FAILED' });
    }
    const tooMany = Array.from({ length: 501 }, () => uuidv7());
    expect(issuesOf(await kit.call('DELETE', w.items, w.admin.headers, { ids: tooMany }))).toEqual([
      'ids:too_long',
    ]);
    expect(codeOf(await kit.call('DELETE', w.items, w.staff.headers, { ids: [question.id] }))).toBe(
      'OPERATION_NOT_PERMITTED',
    );
    for (const who of [w.coordinator, w.outsider, w.student]) {
      const res = await kit.call('DELETE', w.items, who.headers, { ids: [question.id] });
      expect(res.statusCode).toBe(404);
    }
    expect((await kit.call('GET', `${w.items}/count`, w.admin.headers)).json()).toEqual({
      count: 1,
    });
  });
});

describe('exam roles', () => {
  it('follows the exam: a teacher made admin of the exam manages its bank', async () => {
    const w = await kit.world();
    const teacher = await kit.person({ type: 'teacher' });
    expect((await kit.call('GET', w.items, teacher.headers)).statusCode).toBe(404);
    const exam = await makeExam(t.database.db, { adminTeacherIds: [teacher.id] });
    const edition = await makeEdition(t.database.db, { examId: exam.id });
    const phase = await makePhase(t.database.db, { editionId: edition.id });
    const items = `/exams/${exam.id}/editions/${edition.id}/phases/${phase.id}/items`;
    expect((await kit.call('POST', items, teacher.headers, single())).statusCode).toBe(201);
    // …and still not the first exam's.
    expect((await kit.call('POST', w.items, teacher.headers, single())).statusCode).toBe(404);
  });
});
