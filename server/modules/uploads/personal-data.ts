import { and, eq, inArray, like, or, sql } from 'drizzle-orm';
import { answers, files, scanPages } from '../../db/schema.js';
import { cleanFileName } from '../../lib/files/names.js';
import { deleteFileRecords } from '../../lib/files/records.js';
import type { PersonalDataPart } from '../../lib/personal-data.js';

/**
 * Files of a student's answers: pages they uploaded (answer pages are kept under answers/,
 * statement images a teacher uploaded are not) and pages staff entered for them.
 */
const filesOf = (userId: string) =>
  or(
    and(eq(files.ownerId, userId), like(files.storageKey, 'answers/%')),
    inArray(
      files.id,
      sql`(select unnest(${answers.fileIds}) from ${answers} where ${answers.studentId} = ${userId})`,
    ),
  );

/**
 * The pages of a student's answers. The export lists them and the ZIP holds their bytes;
 * anonymising removes them (a page in the student's hand may bear their name), records and
 * bytes. The statement images a teacher uploaded are not theirs to lose: only files of
 * answers are touched. Runs before the results part, which forgets the answers' page lists.
 */
export const uploadsPersonalData: PersonalDataPart = {
  name: 'answerFiles',
  async collect(db, userId) {
    return db
      .select({
        id: files.id,
        name: files.originalName,
        type: files.mime,
        size: files.size,
        sha256: files.sha256,
        uploadedAt: files.createdAt,
        uploadedByThePerson: sql<boolean>`${files.ownerId} = ${userId}`,
      })
      .from(files)
      .where(filesOf(userId))
      .orderBy(files.createdAt);
  },
  async files(db, userId) {
    const rows = await db
      .select({ id: files.id, name: files.originalName, storageKey: files.storageKey })
      .from(files)
      .where(filesOf(userId))
      .orderBy(files.createdAt);
    return rows.map((r) => ({
      id: r.id,
      name: cleanFileName(r.name ?? '', 'pagina'),
      storageKey: r.storageKey,
    }));
  },
  async anonymise(tx, userId) {
    const rows = await tx.select({ id: files.id }).from(files).where(filesOf(userId));
    const ids = rows.map((r) => r.id);
    // A scanned page's note keeps what became of the page, not the page.
    if (ids.length > 0) {
      await tx.update(scanPages).set({ fileId: null }).where(inArray(scanPages.fileId, ids));
    }
    return deleteFileRecords(tx, ids);
  },
};
