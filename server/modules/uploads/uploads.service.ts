import { createHash } from 'node:crypto';
import { ANSWER_FILE_TYPES } from '../../../shared/constants.js';
import {
  ANSWER_BYTES_FACTOR,
  type Answer,
  type AnswerFilesPatch,
  answerZipName,
  MAX_ANSWER_FILES,
  type RejectedFile,
  type StudentItems,
  type TestSummary,
  type UploadResult,
} from '../../../shared/schemas/uploads.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, fieldError, forbidden, notFound } from '../../lib/errors.js';
import { detectFileType } from '../../lib/files/detect.js';
import { cleanFileName } from '../../lib/files/names.js';
import { insertFileRecords } from '../../lib/files/records.js';
import type { FileStorage } from '../../lib/files/storage.js';
import { STRIP_VERSION, stripMetadata } from '../../lib/files/strip.js';
import { buildZip } from '../../lib/files/zip.js';
import { uuidv7 } from '../../lib/ids.js';
import { holdRegistration } from '../exams/index.js';
import { openHybridAnswer, setHybridAnswerFiles } from '../results/index.js';
import { toAnswerDto, toAnswerFileDto, toUploadTestDto } from './uploads.dto.js';
import type { Upload } from './uploads.http.js';
import {
  assertMayChangeAnswer,
  assertUploadOpen,
  seesCorrectAnswers,
  uploadStateFor,
} from './uploads.policy.js';
import * as repo from './uploads.repo.js';
import { requireTest, requireTestStudent, type TestIds, type TestScope } from './uploads.scope.js';

export type UploadsDeps = { db: Db; storage: FileStorage; clock: Clock; maxFileBytes: number };

/** Which answer an upload goes to: the item, and the student (default: the caller). */
export type UploadTarget = {
  itemId: string;
  studentId?: string;
  /**
   * Where the new files go among the answer's files (default: after them), asked in the
   * transaction: a scanned page goes in its booklet order, whatever the order of the scan.
   */
  insertAt?: (tx: Db, fileIds: readonly string[]) => Promise<number>;
};

/**
 * A file the bytes show to be one of the answer types, with the bytes kept (its metadata
 * stripped), or why it is left out.
 */
type Checked =
  | { upload: Upload; mime: string; data: Buffer }
  | { upload: Upload; rejected: RejectedFile['code']; mime: string | null };

const normalizeExt = (ext: string) => (ext.toLowerCase() === 'jpeg' ? 'jpg' : ext.toLowerCase());
const ALLOWED = new Set(ANSWER_FILE_TYPES.map(normalizeExt));
const isHeif = (ext: string, mime: string) =>
  ext === 'heic' || ext === 'heif' || /^image\/hei[cf]/.test(mime);

/** The name a page is kept under when the client's name has nothing usable left. */
const PAGE_NAME_FALLBACK = 'pagina';

const storageKey = (fileId: string) => `answers/${fileId}`;

export function uploadsService({ db, storage, clock, maxFileBytes }: UploadsDeps) {
  const maxAnswerBytes = maxFileBytes * ANSWER_BYTES_FACTOR;
  const limits = {
    maxFileBytes,
    maxAnswerBytes,
    maxFiles: MAX_ANSWER_FILES,
    fileTypes: [...ANSWER_FILE_TYPES],
  };

  /**
   * By the bytes, never the name: pdf, png and jpeg only; HEIC photos get their own code.
   * What is kept is the page without its metadata (blind marking); a file the image or PDF
   * library cannot read is not of an accepted type either.
   */
  async function check(upload: Upload): Promise<Checked> {
    if (upload.truncated || upload.data.length > maxFileBytes) {
      return { upload, rejected: 'FILE_TOO_LARGE', mime: null };
    }
    const type = await detectFileType(upload.data);
    if (!type) return { upload, rejected: 'FILE_TYPE_NOT_ALLOWED', mime: null };
    const ext = normalizeExt(type.ext);
    if (isHeif(ext, type.mime)) return { upload, rejected: 'FILE_TYPE_HEIC', mime: type.mime };
    if (!ALLOWED.has(ext)) return { upload, rejected: 'FILE_TYPE_NOT_ALLOWED', mime: type.mime };
    const data = await stripMetadata(upload.data, type.mime);
    if (!data) return { upload, rejected: 'FILE_TYPE_NOT_ALLOWED', mime: type.mime };
    return { upload, mime: type.mime, data };
  }

  async function filesOf(tx: Db, rows: readonly repo.AnswerRow[]) {
    const found = await repo.findFiles(
      tx,
      rows.flatMap((r) => r.fileIds),
    );
    return new Map(found.map((f) => [f.id, f]));
  }

  /** Re-checked inside the transaction, under the phase's share lock (see `sharePhase`). */
  async function assertPhaseStillOpen(tx: Db, scope: TestScope, at: Date) {
    const phase = await repo.sharePhase(tx, scope.test.phaseId);
    if (!phase) throw notFound('phase');
    assertUploadOpen(
      uploadStateFor(
        scope.role,
        { ...scope.test, phaseState: phase.state, reviewStarted: phase.reviewStarted },
        at,
      ),
    );
  }

  /** The answer of this test, if the caller reaches its student; else 404. */
  async function requireAnswer(scope: TestScope, answerId: string) {
    const answer = await repo.findAnswer(db, scope.test.id, answerId);
    if (!answer) throw notFound('answer');
    await requireTestStudent(scope, db, answer.studentId);
    return answer;
  }

  return {
    /** The test for the teachers' screens, and whether the caller may enter answers now. */
    async getTestSummary(actor: Actor, ids: TestIds): Promise<TestSummary> {
      const scope = await requireTest(db, actor, ids);
      if (scope.role === 'student') throw forbidden();
      return {
        test: toUploadTestDto(scope.test),
        uploadState: uploadStateFor(scope.role, scope.test, clock.now()),
        canEnterAnswers: scope.role === 'manager',
      };
    },

    /**
     * A test's items for one student with their answers and files, 'Întrebarea N' in the
     * order the student had them. Students see only their own, and only once the published
     * test has opened (TEST_NOT_ACTIVE before); correct answers per `seesCorrectAnswers`.
     */
    async getStudentItems(actor: Actor, ids: TestIds, studentId: string): Promise<StudentItems> {
      const now = clock.now();
      const scope = await requireTest(db, actor, ids);
      const student = await requireTestStudent(scope, db, studentId);
      const { test } = scope;
      if (scope.role === 'student' && (!test.published || now < test.startDate)) {
        throw new AppError('TEST_NOT_ACTIVE', 'The test has not opened');
      }
      const [items, order, answerRows] = await Promise.all([
        repo.findTestItems(db, test.id),
        repo.findItemOrder(db, test.id, studentId),
        repo.findAnswers(db, test.id, studentId),
      ]);
      const rank = new Map((order ?? []).map((id, i) => [id, i]));
      const ordered = order
        ? [...items].sort(
            (a, b) =>
              (rank.get(a.questionId) ?? Number.MAX_SAFE_INTEGER) -
              (rank.get(b.questionId) ?? Number.MAX_SAFE_INTEGER),
          )
        : items;
      const files = await filesOf(db, answerRows);
      const byItem = new Map(answerRows.map((a) => [a.questionId, a]));
      const showsCorrect = seesCorrectAnswers(scope.role, scope.access, now > test.endDate);
      return {
        test: toUploadTestDto(test),
        student: {
          _id: student.studentId,
          givenName: student.givenName,
          familyName: student.familyName,
          grade: student.studentGrade,
        },
        status: student.status as StudentItems['status'],
        score: student.score === null ? null : Number(student.score),
        uploadState: uploadStateFor(scope.role, test, now),
        limits,
        items: ordered.map((item, i) => {
          const answer = byItem.get(item.questionId);
          return {
            itemId: item.questionId,
            index: i + 1,
            score: item.score,
            itemQ: item.itemQ,
            itemType: item.itemType,
            itemAnswers: item.itemAnswers,
            imageFileId: item.imageFileId,
            difficulty: item.difficulty,
            ...(showsCorrect ? { itemCorrectAnswers: item.itemCorrectAnswers } : {}),
            answer: answer ? toAnswerDto(answer, files) : null,
          };
        }),
      };
    },

    /**
     * Adds the uploaded pages to the answer (created if missing). Each file is checked by
     * its bytes: pdf, png and jpeg are kept without their metadata, others (and files the
     * libraries cannot read) are reported in `rejectedFiles` and ignored; when none is kept
     * the call fails with the first refusal's code (FILE_TYPE_HEIC, FILE_TYPE_NOT_ALLOWED,
     * FILE_TOO_LARGE). An answer holds at most MAX_ANSWER_FILES files and `maxAnswerBytes`
     * of stored bytes (ANSWER_TOO_LARGE). Students upload their
     * own answers inside the window (TEST_NOT_ACTIVE); the exam's admins enter a paper
     * answer for any of its students (enteredBy, audited); nobody once the review has
     * started or the phase is closed (PHASE_CLOSED). The window is judged on arrival, so a
     * slow upload that began in time counts.
     */
    async uploadAnswer(
      actor: Actor,
      ids: TestIds,
      target: UploadTarget,
      receive: () => Promise<Upload[]>,
    ): Promise<UploadResult> {
      const receivedAt = clock.now();
      const scope = await requireTest(db, actor, ids);
      const studentId = target.studentId ?? (scope.role === 'student' ? actor.id : undefined);
      if (!studentId) throw forbidden();
      await requireTestStudent(scope, db, studentId);
      assertUploadOpen(uploadStateFor(scope.role, scope.test, receivedAt));
      if (!(await repo.isTestItem(db, scope.test.id, target.itemId))) throw notFound('item');

      const uploads = await receive();
      if (uploads.length === 0) throw fieldError({ item_0: ['required'] }, 'No file');
      const checked = await Promise.all(uploads.map(check));
      const rejectedFiles: RejectedFile[] = checked.flatMap((c) =>
        'rejected' in c
          ? [
              {
                field: c.upload.field,
                name: cleanFileName(c.upload.filename, PAGE_NAME_FALLBACK),
                code: c.rejected,
                mime: c.mime,
              },
            ]
          : [],
      );
      const kept = checked.flatMap((c) => ('rejected' in c ? [] : [{ ...c, id: uuidv7() }]));
      const [firstRefusal] = rejectedFiles;
      if (kept.length === 0 && firstRefusal) {
        throw new AppError(firstRefusal.code, 'No file of an accepted type', { rejectedFiles });
      }

      // Bytes first, outside the transaction: a row never points at nothing, and a failed
      // transaction (or a storage that fails after the first pages) removes them again.
      try {
        for (const file of kept) {
          await storage.put(storageKey(file.id), file.data, file.mime);
        }
        return await db.transaction(async (tx) => {
          await assertPhaseStillOpen(tx, scope, receivedAt);
          // Removed from the phase meanwhile: no longer one of the test's students.
          if (!(await holdRegistration(tx, scope.test.phaseId, studentId))) {
            throw notFound('student');
          }
          const answer = await openHybridAnswer(tx, {
            id: uuidv7(),
            testId: scope.test.id,
            studentId,
            questionId: target.itemId,
          });
          assertMayChangeAnswer(scope.role, answer);
          const existing = await repo.findFiles(tx, answer.fileIds);
          const bytes =
            existing.reduce((n, f) => n + f.size, 0) + kept.reduce((n, f) => n + f.data.length, 0);
          if (answer.fileIds.length + kept.length > MAX_ANSWER_FILES || bytes > maxAnswerBytes) {
            throw new AppError('ANSWER_TOO_LARGE', 'The answer would hold too much', {
              maxFiles: MAX_ANSWER_FILES,
              maxBytes: maxAnswerBytes,
            });
          }
          await insertFileRecords(
            tx,
            kept.map((f) => ({
              id: f.id,
              storageKey: storageKey(f.id),
              mime: f.mime,
              size: f.data.length,
              sha256: createHash('sha256').update(f.data).digest('hex'),
              ownerId: actor.id,
              originalName: cleanFileName(f.upload.filename, PAGE_NAME_FALLBACK),
              strippedVersion: STRIP_VERSION,
            })),
          );
          const isStaffEntry = scope.role === 'manager';
          const at = target.insertAt
            ? Math.max(
                0,
                Math.min(answer.fileIds.length, await target.insertAt(tx, answer.fileIds)),
              )
            : answer.fileIds.length;
          const fileIds = [
            ...answer.fileIds.slice(0, at),
            ...kept.map((f) => f.id),
            ...answer.fileIds.slice(at),
          ];
          const updated = await setHybridAnswerFiles(
            tx,
            answer,
            fileIds,
            isStaffEntry ? actor.id : answer.enteredBy,
            receivedAt,
          );
          if (isStaffEntry) {
            await appendAudit(tx, {
              actorId: actor.id,
              action: 'answer.enter',
              entityType: 'answer',
              entityId: answer.id,
              before: { fileIds: answer.fileIds, enteredBy: answer.enteredBy },
              after: { fileIds, testId: scope.test.id, studentId, itemId: target.itemId },
              reason: 'paper',
            });
          }
          const files = await filesOf(tx, [updated]);
          return { ...toAnswerDto(updated, files), rejectedFiles };
        });
      } catch (error) {
        await Promise.all(kept.map((f) => storage.delete(storageKey(f.id)).catch(() => {})));
        throw error;
      }
    },

    /**
     * Keeps only `answerFiles` of the answer, in that order (delete and reorder); each must
     * already be one of its files (CLIENT_ERROR on `answerFiles`). The same rights and
     * limits as uploading; staff changes are audited. Removed files stay stored: the audit
     * trail names them.
     */
    async setAnswerFiles(
      actor: Actor,
      ids: TestIds,
      answerId: string,
      input: AnswerFilesPatch,
    ): Promise<Answer> {
      const now = clock.now();
      const scope = await requireTest(db, actor, ids);
      await requireAnswer(scope, answerId);
      assertUploadOpen(uploadStateFor(scope.role, scope.test, now));
      const wanted = input.answerFiles;
      return db.transaction(async (tx) => {
        await assertPhaseStillOpen(tx, scope, now);
        const answer = await repo.lockAnswer(tx, answerId);
        if (!answer) throw notFound('answer');
        assertMayChangeAnswer(scope.role, answer);
        const current = new Set(answer.fileIds);
        if (new Set(wanted).size !== wanted.length || wanted.some((id) => !current.has(id))) {
          throw fieldError({ answerFiles: ['invalid'] }, 'Only files of this answer, once each');
        }
        const updated = await setHybridAnswerFiles(tx, answer, wanted, answer.enteredBy, now);
        if (scope.role === 'manager') {
          await appendAudit(tx, {
            actorId: actor.id,
            action: 'answer.files.change',
            entityType: 'answer',
            entityId: answer.id,
            before: { fileIds: answer.fileIds },
            after: { fileIds: wanted },
          });
        }
        return toAnswerDto(updated, await filesOf(tx, [updated]));
      });
    },

    /**
     * The answer's files for whoever may view it: with `fileId` that one file (its type
     * from the bytes checked on upload), else every file in order as one zip,
     * response_{answerId}.zip (SPEC.md §7). No files: 404.
     */
    async readAnswerFiles(
      actor: Actor,
      ids: TestIds,
      answerId: string,
      fileId: string | undefined,
    ): Promise<{ name: string; mime: string; data: Buffer; inline: boolean }> {
      const scope = await requireTest(db, actor, ids);
      const answer = await requireAnswer(scope, answerId);
      const wanted = fileId === undefined ? answer.fileIds : [fileId];
      if (wanted.length === 0 || wanted.some((id) => !answer.fileIds.includes(id))) {
        throw notFound('file');
      }
      const rows = new Map((await repo.findFiles(db, wanted)).map((f) => [f.id, f]));
      const ordered = wanted
        .map((id) => rows.get(id))
        .filter((f): f is repo.FileRow => f !== undefined);
      const [single] = ordered;
      if (fileId !== undefined && single) {
        return {
          name: toAnswerFileDto(single).name,
          mime: single.mime,
          data: await storage.get(single.storageKey),
          inline: true,
        };
      }
      const width = String(ordered.length).length;
      const entries = await Promise.all(
        ordered.map(async (f, i) => ({
          // Numbered so the pages keep their order and equal names stay apart.
          name: `${String(i + 1).padStart(Math.max(2, width), '0')}-${toAnswerFileDto(f).name}`,
          data: await storage.get(f.storageKey),
          modifiedAt: f.createdAt,
        })),
      );
      return {
        name: answerZipName(answer.id),
        mime: 'application/zip',
        data: buildZip(entries),
        inline: false,
      };
    },
  };
}

export type UploadsService = ReturnType<typeof uploadsService>;
