import { eq } from 'drizzle-orm';
import { uuidv7 } from '../lib/ids.js';
import { hashPassword } from '../lib/secrets.js';
import { normalizeName } from '../lib/text.js';
import type { Db } from './client.js';
import {
  editionCoordinators,
  editionStudents,
  editions,
  exams,
  examTeachers,
  phaseStudents,
  phases,
  questions,
  testGrades,
  testItems,
  tests,
  users,
} from './schema.js';

export type UserRow = typeof users.$inferSelect;
export type UserSeed = Partial<typeof users.$inferInsert> & { password?: string };

let counter = 0;

/**
 * Inserts a user with sensible defaults (registered, active, confirmed). Shared by the API
 * tests, the browser tests and the demo data, so all three build people the same way.
 */
export async function makeUser(db: Db, seed: UserSeed = {}): Promise<UserRow> {
  counter += 1;
  const { password, ...fields } = seed;
  const type = fields.type ?? 'student';
  const givenName = fields.givenName ?? `Ana${counter}`;
  const familyName = fields.familyName ?? `Popescu${counter}`;
  const [row] = await db
    .insert(users)
    .values({
      id: uuidv7(),
      email: `user${counter}.${Date.now().toString(36)}@example.ro`,
      passwordHash: password ? await hashPassword(password) : null,
      state: 'active',
      registered: true,
      emailConfirmedAt: new Date(),
      country: 'România',
      county: 'Cluj',
      city: 'Cluj-Napoca',
      school: 'Colegiul Național „Emil Racoviță”',
      ...(type === 'student' ? { grade: 7, dateOfBirth: '2013-05-04', locale: 'ro' } : {}),
      ...(type === 'teacher' ? { discipline: 'Matematică' } : {}),
      ...fields,
      type,
      givenName,
      familyName,
      givenNameNormalized: normalizeName(givenName),
      familyNameNormalized: normalizeName(familyName),
    })
    .returning();
  if (!row) throw new Error('user not inserted');
  return row;
}

export type ExamRow = typeof exams.$inferSelect;
export type EditionRow = typeof editions.$inferSelect;
export type PhaseRow = typeof phases.$inferSelect;
export type ExamSeed = Partial<typeof exams.$inferInsert> & {
  adminTeacherIds?: string[];
  staffTeacherIds?: string[];
};

/** Inserts a competition (maths, grades 5–8 unless told otherwise) with its teachers. */
export async function makeExam(db: Db, seed: ExamSeed = {}): Promise<ExamRow> {
  counter += 1;
  const { adminTeacherIds = [], staffTeacherIds = [], ...fields } = seed;
  const name = fields.name ?? `Olimpiada de Matematică ${counter}`;
  const [row] = await db
    .insert(exams)
    .values({
      id: uuidv7(),
      subject: 'Matematică',
      grades: [5, 6, 7, 8],
      ...fields,
      name,
      nameNormalized: normalizeName(name) ?? '',
    })
    .returning();
  if (!row) throw new Error('exam not inserted');
  const links = [
    ...adminTeacherIds.map((teacherId) => ({ examId: row.id, teacherId, role: 'admin' as const })),
    ...staffTeacherIds.map((teacherId) => ({ examId: row.id, teacherId, role: 'staff' as const })),
  ];
  if (links.length > 0) await db.insert(examTeachers).values(links);
  return row;
}

/** Inserts an edition of an exam, with its coordinators. */
export async function makeEdition(
  db: Db,
  seed: Partial<typeof editions.$inferInsert> & { examId: string; coordinatorIds?: string[] },
): Promise<EditionRow> {
  counter += 1;
  const { coordinatorIds = [], ...fields } = seed;
  const [row] = await db
    .insert(editions)
    .values({ id: uuidv7(), name: `Ediția ${counter}`, year: 2026, ...fields })
    .returning();
  if (!row) throw new Error('edition not inserted');
  if (coordinatorIds.length > 0) {
    await db
      .insert(editionCoordinators)
      .values(coordinatorIds.map((teacherId) => ({ editionId: row.id, teacherId })));
  }
  return row;
}

const DAY = 86_400_000;

/** Inserts a phase (online, one week from `startDate`, default 2026-11-23 09:00 UTC). */
export async function makePhase(
  db: Db,
  seed: Partial<typeof phases.$inferInsert> & { editionId: string },
): Promise<PhaseRow> {
  counter += 1;
  const startDate = seed.startDate ?? new Date('2026-11-23T09:00:00Z');
  const [row] = await db
    .insert(phases)
    .values({
      id: uuidv7(),
      name: `Etapa ${counter}`,
      type: 'online',
      endDate: new Date(startDate.getTime() + 7 * DAY),
      ...seed,
      startDate,
    })
    .returning();
  if (!row) throw new Error('phase not inserted');
  return row;
}

/**
 * Enrols a student in an edition with judge credentials and, when given, puts them in
 * phases (the API does the same through the first-phase rule).
 */
export async function makeEnrolment(
  db: Db,
  seed: {
    editionId: string;
    studentId: string;
    grade?: number | null;
    studentCentre?: string | null;
    phaseIds?: string[];
    result?: 'admitted' | 'rejected' | null;
  },
): Promise<void> {
  counter += 1;
  await db.insert(editionStudents).values({
    editionId: seed.editionId,
    studentId: seed.studentId,
    grade: seed.grade ?? null,
    studentCentre: seed.studentCentre ?? null,
    cmsUsername: `demo${counter}${Date.now().toString(36)}`,
    cmsPassword: `parola${counter}`,
  });
  for (const phaseId of seed.phaseIds ?? []) {
    await db
      .insert(phaseStudents)
      .values({ phaseId, studentId: seed.studentId, result: seed.result ?? null });
  }
}

export type QuestionRow = typeof questions.$inferSelect;
export type TestRow = typeof tests.$inferSelect;
export type TestItemSeed = Partial<typeof questions.$inferInsert> & { score?: number };

/**
 * Inserts a test of a phase with its own questions (one per item seed, default a single-choice
 * question whose answer is option 0, worth 10), its grade rows and items; published unless
 * told otherwise. The window defaults to the phase's; duration 60 minutes.
 */
export async function makeTestWithItems(
  db: Db,
  seed: Partial<typeof tests.$inferInsert> & {
    phaseId: string;
    grades?: number[];
    items?: TestItemSeed[];
  },
): Promise<{ test: TestRow; questions: QuestionRow[] }> {
  counter += 1;
  const { items = [{}], grades = [5], ...fields } = seed;
  const [phase] = await db
    .select({ startDate: phases.startDate, endDate: phases.endDate })
    .from(phases)
    .where(eq(phases.id, seed.phaseId));
  if (!phase) throw new Error('phase not found');
  const rows: QuestionRow[] = [];
  for (const [i, item] of items.entries()) {
    const { score: _score, ...q } = item;
    const [row] = await db
      .insert(questions)
      .values({
        id: uuidv7(),
        phaseId: seed.phaseId,
        itemQ: `Întrebarea ${i + 1}: cât face ${i} + ${i}?`,
        itemDiscipline: 'Algebră',
        itemGrade: grades[0] ?? 5,
        difficulty: 'low',
        itemType: 'single',
        itemAnswers: ['0', '1', '2', '3'],
        itemCorrectAnswers: [0],
        ...q,
      })
      .returning();
    if (!row) throw new Error('question not inserted');
    rows.push(row);
  }
  const total = items.reduce((sum, item) => sum + (item.score ?? 10), 0);
  const [test] = await db
    .insert(tests)
    .values({
      id: uuidv7(),
      name: `Test ${counter}`,
      subject: 'Matematică',
      startDate: phase.startDate,
      endDate: phase.endDate,
      durationMinutes: 60,
      totalScore: total,
      easyCount: items.length,
      seed: `seed-${counter}`,
      published: true,
      ...fields,
      grades,
    })
    .returning();
  if (!test) throw new Error('test not inserted');
  await db
    .insert(testGrades)
    .values(grades.map((grade) => ({ phaseId: seed.phaseId, grade, testId: test.id })));
  await db.insert(testItems).values(
    rows.map((q, i) => ({
      testId: test.id,
      questionId: q.id,
      position: i + 1,
      score: items[i]?.score ?? 10,
    })),
  );
  return { test, questions: rows };
}

/** Inserts a question of a phase's bank (single choice, grade 5, easy unless told otherwise). */
export async function makeQuestion(
  db: Db,
  seed: Partial<typeof questions.$inferInsert> & { phaseId: string },
): Promise<QuestionRow> {
  counter += 1;
  const [row] = await db
    .insert(questions)
    .values({
      id: uuidv7(),
      itemQ: `Cât face $${counter} + 1$?`,
      itemCategory: 'Algebră',
      itemDiscipline: 'Matematică',
      itemGrade: 5,
      difficulty: 'low',
      itemType: 'single',
      itemAnswers: [String(counter), String(counter + 1), String(counter + 2)],
      itemCorrectAnswers: [1],
      ...seed,
    })
    .returning();
  if (!row) throw new Error('question not inserted');
  return row;
}
