// Seeds an exam morning straight into the tables (multi-row INSERTs): one competition, edition
// and online phase, a bank of questions, one published test for grade 7 whose window is open
// now, the registered students, and one live session per student created the way sign-in
// creates it (a random token, stored as its SHA-256 hash).

import type { Db } from '../server/db/client.js';
import {
  editionStudents,
  editions,
  exams,
  phaseStudents,
  phases,
  questions,
  sessions,
  testGrades,
  testItems,
  tests,
  users,
} from '../server/db/schema.js';
import { uuidv7 } from '../server/lib/ids.js';
import { randomToken, sha256 } from '../server/lib/secrets.js';

export const EXAM_GRADE = 7;

export type SeedItem = {
  questionId: string;
  type: 'single' | 'multiple' | 'numeric';
  /** Number of options of a choice item (0 for numeric). */
  options: number;
};

export type SeedStudent = { id: string; token: string };

export type SeededExam = {
  testId: string;
  phaseId: string;
  /** A second, unpublished test on the same questions: the bare upsert route writes there. */
  bareTestId: string;
  items: SeedItem[];
  students: SeedStudent[];
};

export type ExamSeedOptions = {
  students: number;
  items: number;
  /** How long the test lasts for each student, and how long its window stays open. */
  durationMinutes: number;
};

const CHUNK = 1000;
const MINUTE = 60_000;

/** The kind of item at a position: mostly single choice, some multiple choice and numeric. */
const itemType = (i: number): SeedItem['type'] =>
  i % 5 === 3 ? 'multiple' : i % 5 === 4 ? 'numeric' : 'single';

async function inChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += CHUNK) {
    await insert(rows.slice(start, start + CHUNK));
  }
}

export async function seedExam(db: Db, opts: ExamSeedOptions): Promise<SeededExam> {
  const now = Date.now();
  const examId = uuidv7();
  await db.insert(exams).values({
    id: examId,
    name: 'Olimpiada de Matematică (bench)',
    nameNormalized: 'olimpiada de matematica (bench)',
    subject: 'Matematică',
    grades: [EXAM_GRADE],
  });
  const editionId = uuidv7();
  await db.insert(editions).values({ id: editionId, examId, name: '2026', year: 2026 });
  const phaseId = uuidv7();
  await db.insert(phases).values({
    id: phaseId,
    editionId,
    name: 'Etapa județeană',
    type: 'online',
    startDate: new Date(now - 60 * MINUTE),
    endDate: new Date(now + 24 * 60 * MINUTE),
  });

  const items: SeedItem[] = Array.from({ length: opts.items }, (_, i) => {
    const type = itemType(i);
    return {
      questionId: uuidv7(),
      type,
      options: type === 'numeric' ? 0 : type === 'multiple' ? 5 : 4,
    };
  });
  await db.insert(questions).values(
    items.map((item, i) => ({
      id: item.questionId,
      phaseId,
      itemQ: `Întrebarea ${i + 1}: câte soluții are ecuația $x^2 - ${i + 1} = 0$ în $\\mathbb{Z}$?`,
      itemDiscipline: 'Matematică',
      itemGrade: EXAM_GRADE,
      difficulty: (['low', 'medium', 'hard'] as const)[i % 3] ?? 'low',
      itemType: item.type,
      itemAnswers: Array.from({ length: item.options }, (_, k) => `Varianta ${k + 1}`),
      itemCorrectAnswers:
        item.type === 'numeric' ? String(i + 1) : item.type === 'multiple' ? [0, 2] : [i % 4],
    })),
  );

  const testId = uuidv7();
  const bareTestId = uuidv7();
  const test = {
    phaseId,
    grades: [EXAM_GRADE],
    subject: 'Matematică',
    startDate: new Date(now - 5 * MINUTE),
    endDate: new Date(now + opts.durationMinutes * MINUTE),
    durationMinutes: opts.durationMinutes,
    totalScore: opts.items * 5,
    easyCount: opts.items,
    seed: 'bench',
  };
  await db.insert(tests).values([
    { id: testId, name: 'Test online clasa a VII-a', published: true, ...test },
    // Unpublished and without grades: no student can start it; only the bare route writes to it.
    { id: bareTestId, name: 'Bare upsert baseline', published: false, ...test, grades: [] },
  ]);
  await db.insert(testGrades).values({ phaseId, grade: EXAM_GRADE, testId });
  await db
    .insert(testItems)
    .values(
      items.map((item, i) => ({ testId, questionId: item.questionId, position: i + 1, score: 5 })),
    );

  const students = Array.from({ length: opts.students }, (_, i) => ({
    id: uuidv7(),
    token: randomToken(),
    index: i,
  }));
  await inChunks(students, (chunk) =>
    db.insert(users).values(
      chunk.map((s) => ({
        id: s.id,
        email: `elev${s.index}@examen.bench.podium.ro`,
        type: 'student' as const,
        state: 'active' as const,
        registered: true,
        emailConfirmedAt: new Date(now),
        givenName: `Elev${s.index}`,
        familyName: 'Bench',
        givenNameNormalized: `elev${s.index}`,
        familyNameNormalized: 'bench',
        county: 'Cluj',
        country: 'România',
        city: 'Cluj-Napoca',
        school: 'Școala Gimnazială nr. 1',
        grade: EXAM_GRADE,
        dateOfBirth: '2013-05-04',
        locale: 'ro',
      })),
    ),
  );
  await inChunks(students, (chunk) =>
    db
      .insert(editionStudents)
      .values(chunk.map((s) => ({ editionId, studentId: s.id, grade: EXAM_GRADE }))),
  );
  await inChunks(students, (chunk) =>
    db.insert(phaseStudents).values(chunk.map((s) => ({ phaseId, studentId: s.id }))),
  );
  // Signed in just before the test, as in a school lab: fresh sessions (last seen now).
  await inChunks(students, (chunk) =>
    db.insert(sessions).values(
      chunk.map((s) => ({
        id: uuidv7(),
        userId: s.id,
        tokenHash: sha256(s.token),
        expiresAt: new Date(now + 24 * 60 * MINUTE),
        lastSeenAt: new Date(now),
        userAgent: 'podium-bench',
      })),
    ),
  );

  return {
    testId,
    phaseId,
    bareTestId,
    items,
    students: students.map(({ id, token }) => ({ id, token })),
  };
}
