import { and, eq, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { attempts, editions, files, phases, questions, testItems } from '../../db/schema.js';

export type FileRow = typeof files.$inferSelect;

export async function findFile(db: Db, fileId: string): Promise<FileRow | undefined> {
  const [row] = await db.select().from(files).where(eq(files.id, fileId));
  return row;
}

/** Questions showing the file: as their image, in the statement or in an option. */
function showsFile(fileId: string): SQL | undefined {
  const path = `/files/${fileId}`;
  return or(
    eq(questions.imageFileId, fileId),
    sql`strpos(${questions.itemQ}, ${path}) > 0`,
    sql`strpos(${questions.itemAnswers}::text, ${path}) > 0`,
  );
}

/** The exams whose live questions show this file. */
export async function findExamsUsingFile(db: Db, fileId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ examId: editions.examId })
    .from(questions)
    .innerJoin(phases, eq(phases.id, questions.phaseId))
    .innerJoin(editions, eq(editions.id, phases.editionId))
    .where(and(isNull(questions.deletedAt), showsFile(fileId)))
    .limit(20);
  return rows.map((r) => r.examId);
}

/** Whether a question showing the file was drawn into a test this student has an attempt on. */
export async function isFileInStudentAttempt(
  db: Db,
  fileId: string,
  studentId: string,
): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(attempts)
    .innerJoin(testItems, eq(testItems.testId, attempts.testId))
    .innerJoin(questions, eq(questions.id, testItems.questionId))
    .where(and(eq(attempts.studentId, studentId), showsFile(fileId)))
    .limit(1);
  return row !== undefined;
}
