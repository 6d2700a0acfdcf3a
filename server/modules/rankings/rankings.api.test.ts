import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestWithItems } from '../../db/factories.js';
import {
  answers,
  editionStudents,
  phases,
  rankingChanges,
  testResults,
  users,
} from '../../db/schema.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { codeOf, type Person, rankingsKit } from './rankings.fixtures.js';

let t: TestApp;
let kit: ReturnType<typeof rankingsKit>;
let admin: Person;

beforeAll(async () => {
  t = await buildTestApp();
  kit = rankingsKit(t);
  admin = await kit.person({ type: 'admin' });
});
afterAll(async () => {
  await t.close();
});

type Row = Record<string, unknown>;
const list = async (p: Person, url: string, filter?: object) => {
  const res = await kit.call(
    'GET',
    `${url}/rankings${filter ? `?filter=${kit.q(filter)}` : ''}`,
    p.headers,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Row[];
};
const count = async (p: Person, url: string, where?: object) => {
  const res = await kit.call(
    'GET',
    `${url}/rankings/count${where ? `?where=${kit.q(where)}` : ''}`,
    p.headers,
  );
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { count: number }).count;
};
const ranksOf = (rows: Row[]) => rows.map((r) => `${r.givenName}:${r.rank}`);

describe('GET …/rankings', () => {
  let w: Awaited<ReturnType<typeof kit.world>>;
  const s: Record<string, Person> = {};

  beforeAll(async () => {
    w = await kit.world();
    const seeds = [
      {
        givenName: 'Ana',
        familyName: 'Țurcanu',
        county: 'Iași',
        total: 20,
        teacherRef: w.coordinator.id,
      },
      { givenName: 'Bogdan', familyName: 'Popa', county: 'Cluj', total: 18 },
      {
        givenName: 'Carmen',
        familyName: 'Pop',
        county: 'Cluj',
        total: 18,
        teacherRef: w.coordinator.id,
      },
      { givenName: 'Dan', familyName: 'Ionescu', county: 'Alba', total: 10 },
      { givenName: 'Elena', familyName: 'Matei', county: 'Alba', total: 25, grade: 6 },
      // Takes part without a result: never ranked.
      { givenName: 'Florin', familyName: 'Dinu', county: 'Olt', total: null },
    ];
    for (const seed of seeds) s[seed.givenName] = await kit.student(w, seed);
  });

  it("ranks per grade by total with shared ranks (1, 2, 2, 4), the exam's first grade by default", async () => {
    const rows = await list(admin, w.phaseUrl);
    expect(ranksOf(rows)).toEqual(['Ana:1', 'Bogdan:2', 'Carmen:2', 'Dan:4']);
    expect(rows[0]).toEqual({
      _id: s.Ana?.id,
      familyName: 'Țurcanu',
      givenName: 'Ana',
      studentCounty: 'Iași',
      studentSector: null,
      studentGrade: 5,
      school: 'Colegiul Național „Emil Racoviță”',
      code: expect.stringMatching(/^[0-9A-F]{10}$/),
      rank: 1,
      rankedInGrade: 4,
      total: 20,
      scoreState: 'final',
      status: null,
      prize: null,
      isMe: false,
    });
    expect(await count(admin, w.phaseUrl)).toBe(4);
    expect(ranksOf(await list(admin, w.phaseUrl, { where: { studentGrade: 6 } }))).toEqual([
      'Elena:1',
    ]);
    expect(ranksOf(await list(admin, w.phaseUrl, { where: { studentGrade: '' } }))).toEqual([
      'Ana:1',
      'Bogdan:2',
      'Carmen:2',
      'Dan:4',
      'Elena:1',
    ]);
    expect(await count(admin, w.phaseUrl, { studentGrade: '' })).toBe(5);
  });

  it('filters, searches, sorts and pages without changing anyone’s rank', async () => {
    expect(ranksOf(await list(admin, w.phaseUrl, { where: { studentCounty: 'Cluj' } }))).toEqual([
      'Bogdan:2',
      'Carmen:2',
    ]);
    expect(
      ranksOf(
        await list(admin, w.phaseUrl, { where: { familyNameNormalized: { like: 'turc%' } } }),
      ),
    ).toEqual(['Ana:1']);
    expect(
      ranksOf(await list(admin, w.phaseUrl, { order: 'givenName DESC', limit: 2, skip: 1 })),
    ).toEqual(['Carmen:2', 'Bogdan:2']);
    expect(ranksOf(await list(admin, w.phaseUrl, { where: { rank: { lte: 2 } } }))).toHaveLength(3);
    expect(await count(admin, w.phaseUrl, { studentCounty: 'Alba' })).toBe(1);
    const projected = await list(admin, w.phaseUrl, { fields: ['rank'] });
    expect(Object.keys(projected[0] ?? {}).sort()).toEqual(['_id', 'rank']);
    const bad = await kit.call(
      'GET',
      `${w.phaseUrl}/rankings?filter=${kit.q({ where: { email: 'x' } })}`,
      admin.headers,
    );
    expect(bad.statusCode).toBe(400);
    expect(codeOf(bad)).toBe('VALIDATION_FAILED');
  });

  it('shows a coordinator their own students, ranked among everyone; others get 404', async () => {
    expect(ranksOf(await list(w.coordinator, w.phaseUrl))).toEqual(['Ana:1', 'Carmen:2']);
    expect(await count(w.coordinator, w.phaseUrl)).toBe(2);
    expect(ranksOf(await list(w.staff, w.phaseUrl))).toHaveLength(4);
    for (const path of ['rankings', 'rankings/count', 'rankings/summary', 'rankings/download']) {
      const res = await kit.call('GET', `${w.phaseUrl}/${path}`, w.outsider.headers);
      expect(res.statusCode, path).toBe(404);
    }
  });

  it('follows a change of a total at once, rebuilding only after a change', async () => {
    await list(admin, w.phaseUrl);
    const first = await kit.rebuiltAt(w.phase.id);
    await list(admin, w.phaseUrl);
    await count(admin, w.phaseUrl);
    expect(await kit.rebuiltAt(w.phase.id)).toEqual(first);
    // An appeal lifts Dan from 10 to 19 (the results module writes phase_results).
    await kit.setTotal(w.phase.id, s.Dan?.id ?? '', 19);
    expect(ranksOf(await list(admin, w.phaseUrl))).toEqual([
      'Ana:1',
      'Dan:2',
      'Bogdan:3',
      'Carmen:3',
    ]);
    await kit.setTotal(w.phase.id, s.Dan?.id ?? '', 10);
    expect(ranksOf(await list(admin, w.phaseUrl))).toEqual([
      'Ana:1',
      'Bogdan:2',
      'Carmen:2',
      'Dan:4',
    ]);
  });

  it('follows a change of grade and a deleted account', async () => {
    const db = t.database.db;
    await db
      .update(editionStudents)
      .set({ grade: 6 })
      .where(
        and(
          eq(editionStudents.editionId, w.edition.id),
          eq(editionStudents.studentId, s.Ana?.id ?? ''),
        ),
      );
    expect(ranksOf(await list(admin, w.phaseUrl, { where: { studentGrade: 6 } }))).toEqual([
      'Elena:1',
      'Ana:2',
    ]);
    expect(ranksOf(await list(admin, w.phaseUrl))).toEqual(['Bogdan:1', 'Carmen:1', 'Dan:3']);
    await db
      .update(users)
      .set({ deletedAt: new Date() })
      .where(eq(users.id, s.Dan?.id ?? ''));
    expect(ranksOf(await list(admin, w.phaseUrl))).toEqual(['Bogdan:1', 'Carmen:1']);
    await db
      .update(users)
      .set({ deletedAt: null })
      .where(eq(users.id, s.Dan?.id ?? ''));
    await db
      .update(editionStudents)
      .set({ grade: 5 })
      .where(
        and(
          eq(editionStudents.editionId, w.edition.id),
          eq(editionStudents.studentId, s.Ana?.id ?? ''),
        ),
      );
    expect(ranksOf(await list(admin, w.phaseUrl))).toEqual([
      'Ana:1',
      'Bogdan:2',
      'Carmen:2',
      'Dan:4',
    ]);
  });

  it('keeps no change notes once read, and notes each kind of change', async () => {
    const db = t.database.db;
    await list(admin, w.phaseUrl);
    const notes = async () =>
      (await db.select().from(rankingChanges).where(eq(rankingChanges.phaseId, w.phase.id))).length;
    expect(await notes()).toBe(0);
    await kit.setTotal(w.phase.id, s.Bogdan?.id ?? '', 18);
    expect(await notes()).toBeGreaterThan(0);
    await list(admin, w.phaseUrl);
    expect(await notes()).toBe(0);
  });
});

describe('provisional or final', () => {
  it('says awaiting marking, provisional inside the appeal window, final after it or once closed', async () => {
    const future = new Date(Date.now() + 86_400_000);
    const w = await kit.world({
      appealStartDate: new Date(Date.now() - 86_400_000),
      appealEndDate: future,
    });
    const a = await kit.student(w, { givenName: 'Ana', familyName: 'A', total: 10 });
    await kit.student(w, { givenName: 'Bia', familyName: 'B', total: 12, awaitingItems: 2 });
    const states = async () =>
      (await list(admin, w.phaseUrl)).map((r) => `${r.givenName}:${r.scoreState}`);
    expect(await states()).toEqual(['Bia:awaiting_marking', 'Ana:provisional']);
    const summary = await kit.call('GET', `${w.phaseUrl}/rankings/summary`, admin.headers);
    expect(summary.json()).toMatchObject({ phaseState: 'open', grades: [{ grade: 5, ranked: 2 }] });
    const db = t.database.db;
    await db
      .update(phases)
      .set({ appealEndDate: new Date(Date.now() - 1000) })
      .where(eq(phases.id, w.phase.id));
    expect(await states()).toEqual(['Bia:awaiting_marking', 'Ana:final']);
    await db
      .update(phases)
      .set({ appealEndDate: future, state: 'closed' })
      .where(eq(phases.id, w.phase.id));
    await kit.setTotal(w.phase.id, a.id, 10);
    expect(await states()).toEqual(['Bia:awaiting_marking', 'Ana:final']);
  });
});

describe('tie-break', () => {
  it("breaks ties by the last item's points, then the one before, when the phase sets it", async () => {
    const w = await kit.world();
    const db = t.database.db;
    const test = await makeTestWithItems(db, {
      phaseId: w.phase.id,
      grades: [5],
      items: [{ score: 10 }, { score: 10 }, { score: 10 }],
    });
    const people = [];
    // Items' points: all total 12, differing on the last item, then the middle one.
    for (const [name, points] of [
      ['Ana', [6, 2, 4]],
      ['Bia', [2, 4, 6]],
      ['Cip', [4, 2, 6]],
      ['Dia', [4, 2, 6]],
    ] as const) {
      const p = await kit.student(w, { givenName: name, familyName: 'X', total: 12 });
      people.push(p);
      await db
        .insert(testResults)
        .values({ testId: test.test.id, studentId: p.id, phaseId: w.phase.id, points: 12 });
      for (const [i, item] of test.questions.entries()) {
        await db.insert(answers).values({
          id: crypto.randomUUID(),
          testId: test.test.id,
          studentId: p.id,
          questionId: item.id,
          score: points[i],
          scoreOrigin: 'auto',
          scoreState: 'decided',
        });
      }
    }
    expect(ranksOf(await list(admin, w.phaseUrl, { order: 'givenName ASC' }))).toEqual([
      'Ana:1',
      'Bia:1',
      'Cip:1',
      'Dia:1',
    ]);
    const rules = await kit.call('GET', `${w.phaseUrl}/rules`, admin.headers);
    const put = await kit.call('PUT', `${w.phaseUrl}/rules`, admin.headers, {
      ...(rules.json() as object),
      tieBreak: 'items_from_last',
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(ranksOf(await list(admin, w.phaseUrl, { order: 'givenName ASC' }))).toEqual([
      'Ana:4',
      'Bia:1',
      'Cip:2',
      'Dia:2',
    ]);
  });
});

describe('a published ranking, seen by students', () => {
  let w: Awaited<ReturnType<typeof kit.world>>;
  let ana: Person;
  let bogdan: Person;
  let outsider: Person;

  beforeAll(async () => {
    w = await kit.world();
    ana = await kit.student(w, {
      givenName: 'Ana-Maria',
      familyName: 'Țurcanu Pop',
      county: 'Iași',
      total: 20,
    });
    bogdan = await kit.student(w, { givenName: 'Bogdan', familyName: 'Popa', total: 18 });
    outsider = await kit.person({ type: 'student', grade: 5 });
  });

  const publish = async (publication: string) => {
    const rules = (await kit.call('GET', `${w.phaseUrl}/rules`, admin.headers)).json() as object;
    const res = await kit.call('PUT', `${w.phaseUrl}/rules`, w.staff.headers, {
      ...rules,
      publication,
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  it('is refused (403) until published, and 404 to a student not in the phase', async () => {
    const res = await kit.call('GET', `${w.phaseUrl}/rankings`, ana.headers);
    expect(res.statusCode).toBe(403);
    expect(codeOf(res)).toBe('OPERATION_NOT_PERMITTED');
    expect((await kit.call('GET', `${w.phaseUrl}/rankings`, outsider.headers)).statusCode).toBe(
      404,
    );
  });

  it('shows names, initials or codes as the phase chooses, never ids or decisions', async () => {
    await publish('names');
    const names = await list(bogdan, w.phaseUrl);
    expect(names[0]).toMatchObject({
      familyName: 'Țurcanu Pop',
      givenName: 'Ana-Maria',
      school: 'Colegiul Național „Emil Racoviță”',
      studentCounty: 'Iași',
      rank: 1,
      status: null,
      isMe: false,
    });
    expect(names[1]).toMatchObject({ givenName: 'Bogdan', isMe: true });
    await publish('initials');
    const initials = await list(bogdan, w.phaseUrl);
    expect(initials[0]).toMatchObject({
      familyName: 'Ț. P.',
      givenName: 'A.-M.',
      school: null,
      studentCounty: 'Iași',
    });
    await publish('codes');
    const codes = await list(bogdan, w.phaseUrl);
    expect(codes[0]).toMatchObject({
      familyName: null,
      givenName: null,
      school: null,
      rank: 1,
      total: 20,
    });
    for (const row of [...names, ...initials, ...codes]) {
      expect(row._id).toBe(row.code);
      expect(JSON.stringify(row)).not.toContain(ana.id);
      expect(JSON.stringify(row)).not.toContain(ana.email);
    }
    expect(await count(ana, w.phaseUrl)).toBe(2);
  });

  it('lets students filter by county, grade, rank, total and prize only; no download', async () => {
    await publish('codes');
    expect(await list(ana, w.phaseUrl, { where: { studentCounty: 'Iași' } })).toHaveLength(1);
    for (const where of [
      { familyName: 'Popa' },
      { givenNameNormalized: { like: 'a%' } },
      { status: 'admitted' },
    ]) {
      const res = await kit.call(
        'GET',
        `${w.phaseUrl}/rankings?filter=${kit.q({ where })}`,
        ana.headers,
      );
      expect(res.statusCode, JSON.stringify(where)).toBe(400);
    }
    expect((await kit.call('GET', `${w.phaseUrl}/rankings/download`, ana.headers)).statusCode).toBe(
      403,
    );
  });

  it('gives each student their own rank in every phase (GET /my-rankings)', async () => {
    await publish('initials');
    const res = await kit.call('GET', '/my-rankings', bogdan.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        examId: w.exam.id,
        examName: w.exam.name,
        editionId: w.edition.id,
        editionName: w.edition.name,
        phaseId: w.phase.id,
        phaseName: w.phase.name,
        phaseState: 'open',
        grade: 5,
        rank: 2,
        rankedInGrade: 2,
        total: 18,
        scoreState: 'final',
        status: null,
        prize: null,
        publication: 'initials',
        code: expect.stringMatching(/^[0-9A-F]{10}$/),
        diplomaAvailable: false,
      },
    ]);
    expect((await kit.call('GET', '/my-rankings', admin.headers)).statusCode).toBe(403);
  });

  it('gives codes nobody can work out from the ids, and no order that tells who signed up first', async () => {
    await publish('codes');
    // A third student tied with Bogdan: ties used to be listed by id, i.e. by sign-up time.
    const chris = await kit.student(w, { givenName: 'Cristi', familyName: 'Radu', total: 18 });
    const rows = await list(ana, w.phaseUrl);
    expect(rows).toHaveLength(3);
    const md5Code = (studentId: string) =>
      createHash('md5')
        .update(`${w.phase.id}${studentId}`)
        .digest('hex')
        .slice(0, 10)
        .toUpperCase();
    const codes = rows.map((r) => r.code);
    for (const student of [ana, bogdan, chris]) {
      expect(codes).not.toContain(md5Code(student.id));
    }
    for (const row of rows) {
      expect(row._id).toBe(row.code);
      expect(String(row._id)).toMatch(/^[0-9A-F]{10}$/);
    }
    // Tied rows come by code, not by id.
    const tied = rows.filter((r) => r.total === 18).map((r) => String(r.code));
    expect(tied).toEqual([...tied].sort());
    // Sorting or filtering by `_id` is refused like any field the list does not offer.
    for (const filter of [
      { order: ['_id ASC'] },
      { order: '_id DESC' },
      { where: { _id: ana.id } },
      { where: { code: rows[0]?.code } },
    ]) {
      const res = await kit.call(
        'GET',
        `${w.phaseUrl}/rankings?filter=${kit.q(filter)}`,
        ana.headers,
      );
      expect(res.statusCode, JSON.stringify(filter)).toBe(400);
      expect(codeOf(res)).toBe('VALIDATION_FAILED');
    }
    // A code stays the student's while they are ranked (a rebuild keeps it).
    await kit.setTotal(w.phase.id, chris.id, 19);
    const again = await list(ana, w.phaseUrl);
    expect(new Set(again.map((r) => r.code))).toEqual(new Set(codes));
  });
});

describe('elevi.csv', () => {
  it('streams every matching row: BOM, Romanian headers, `;`, decimal comma, diacritics, no formulas', async () => {
    const w = await kit.world();
    await kit.student(w, {
      givenName: 'Ștefan',
      familyName: 'Țăran',
      county: 'Argeș',
      total: 17.5,
    });
    await kit.student(w, {
      givenName: '=HYPERLINK("x")',
      familyName: 'Pop; Ion',
      county: 'Cluj',
      total: 9,
      teacherRef: w.coordinator.id,
    });
    const res = await kit.call(
      'GET',
      `${w.phaseUrl}/rankings/download?filter=${kit.q({ limit: 1 })}`,
      admin.headers,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="elevi.csv"');
    const body = res.rawPayload;
    expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = body.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe(
      'Loc;Nume;Prenume;Clasa;Județ;Școala;Punctaj;Stare rezultat;Rezultat;Premiu;Cod;Sector',
    );
    expect(lines[1]).toMatch(
      /^1;Țăran;Ștefan;5;Argeș;Colegiul Național „Emil Racoviță”;17,5;final;;;[0-9A-F]{10};$/,
    );
    expect(lines[2]).toMatch(/^2;"Pop; Ion";"'=HYPERLINK\(""x""\)";5;Cluj;/);
    expect(lines).toHaveLength(4);
    const mine = await kit.call('GET', `${w.phaseUrl}/rankings/download`, w.coordinator.headers);
    expect(mine.rawPayload.toString('utf8').split('\r\n')).toHaveLength(3);
  });
});

describe('ranks made in SQL', () => {
  it('agree with counting those strictly ahead, on random phases', async () => {
    const w = await kit.world();
    const db = t.database.db;
    const people: { id: string; grade: number }[] = [];
    for (let i = 0; i < 24; i += 1) {
      const grade = i % 2 === 0 ? 5 : 6;
      const p = await kit.student(w, {
        givenName: `S${String(i).padStart(2, '0')}`,
        familyName: 'R',
        grade,
        total: 0,
      });
      people.push({ id: p.id, grade });
    }
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 8 }), { minLength: 24, maxLength: 24 }),
        async (halves) => {
          const totals = halves.map((h) => h / 2);
          await db.transaction(async (tx) => {
            for (const [i, p] of people.entries()) {
              await tx.execute(sql`update phase_results set points = ${totals[i]}
                where phase_id = ${w.phase.id} and student_id = ${p.id}`);
            }
          });
          const rows = await list(admin, w.phaseUrl, { where: { studentGrade: '' }, limit: 100 });
          for (const [i, p] of people.entries()) {
            const ahead = people.filter(
              (o, j) => o.grade === p.grade && (totals[j] ?? 0) > (totals[i] ?? 0),
            ).length;
            expect(rows.find((r) => r._id === p.id)?.rank).toBe(ahead + 1);
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
