import { FIELD_CODES, type FieldCode } from '../../../shared/errors.js';
import {
  type ImageImportReport,
  imageImportFieldsSchema,
  type SheetImportReport,
} from '../../../shared/schemas/questions.js';
import { statementImage } from '../../../shared/statement.js';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../lib/auth-guard.js';
import { AppError, fieldError, validationFailed } from '../../lib/errors.js';
import { assertAllowedFile, detectFileType } from '../../lib/files/detect.js';
import { cleanFileName } from '../../lib/files/names.js';
import { uuidv7 } from '../../lib/ids.js';
import { type FilesService, IMAGE_NAME_FALLBACK } from './files.service.js';
import {
  assertSheetBounds,
  buildQuestionTemplate,
  checkSheetRow,
  readQuestionSheet,
} from './question-sheet.js';
import type { MultipartBody } from './questions.http.js';
import * as repo from './questions.repo.js';
import type { PhaseParams, QuestionsService } from './questions.service.js';

export type QuestionImportDeps = {
  db: Db;
  questions: QuestionsService;
  files: FilesService;
  maxBytes: number;
};

/** Reads the request's multipart body; called only once the actor's rights are known. */
export type ReadBody = () => Promise<MultipartBody>;

/** Refusals a single file may get without spoiling the others. */
const FILE_CODES = new Set(['FILE_TYPE_NOT_ALLOWED', 'FILE_TOO_LARGE']);
/** The file's name without its extension describes the image for screen readers. */
const altOf = (name: string) => name.replace(/\.[a-z0-9]{1,5}$/i, '');

export function questionImportService({ db, questions, files, maxBytes }: QuestionImportDeps) {
  return {
    /** `GET …/items/import-template`: the spreadsheet to fill in (managers and staff). */
    async template(actor: Actor, p: PhaseParams): Promise<Buffer> {
      await questions.requireBank(actor, p, 'view');
      return buildQuestionTemplate();
    },

    /**
     * `POST …/items/files`: one open question per accepted image (png/jpeg by content) with
     * the given discipline and grade, its statement showing the image; each refused file is
     * reported with its code. Nothing is stored for a request with bad fields.
     */
    async importImages(actor: Actor, p: PhaseParams, read: ReadBody): Promise<ImageImportReport> {
      const ctx = await questions.requireBank(actor, p, 'manage');
      const { uploads, fields: rawFields } = await read();
      const parsed = imageImportFieldsSchema.safeParse(rawFields);
      if (!parsed.success) {
        // The schema's messages are field codes; a wrong value (Grade 'VI') stays 'invalid'.
        throw validationFailed(
          parsed.error.issues.map((issue) => ({
            code: (FIELD_CODES as readonly string[]).includes(issue.message)
              ? (issue.message as FieldCode)
              : 'invalid',
            path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
          })),
        );
      }
      if (uploads.length === 0) throw fieldError({ image: ['required'] }, 'No image');
      if (ctx.phase.state === 'closed') throw new AppError('PHASE_CLOSED', 'The phase is closed');
      const fields = parsed.data;
      const stored: { file: string; fileId: string }[] = [];
      const refused: ImageImportReport['refused'] = [];
      for (const upload of uploads) {
        try {
          const row = await files.storeImage(actor, upload);
          stored.push({ file: row.originalName ?? upload.filename, fileId: row.id });
        } catch (error) {
          if (!(error instanceof AppError) || !FILE_CODES.has(error.code)) throw error;
          refused.push({
            file: cleanFileName(upload.filename, IMAGE_NAME_FALLBACK),
            code: error.code,
          });
        }
      }
      const rows = stored.map(({ file, fileId }) => ({
        id: uuidv7(),
        phaseId: ctx.phase.id,
        itemQ: statementImage(fileId, altOf(file)),
        itemCategory: fields.Category,
        itemDiscipline: fields.Discipline,
        itemGrade: fields.Grade,
        difficulty: fields.Difficulty,
        itemType: 'open' as const,
        itemAnswers: [],
        itemCorrectAnswers: null,
        imageFileId: fileId,
        createdBy: actor.id,
      }));
      await db.transaction(async (tx) => {
        await questions.openPhaseForChange(tx, ctx.phase.id);
        await repo.insertQuestions(tx, rows);
      });
      return {
        createdCount: rows.length,
        created: rows.map((q, i) => ({ file: stored[i]?.file ?? '', _id: q.id })),
        refused,
      };
    },

    /**
     * `POST …/items/import`: every valid row becomes a question (all in one transaction);
     * every refused row is reported with the field and code. An unusable file changes nothing.
     */
    async importSheet(actor: Actor, p: PhaseParams, read: ReadBody): Promise<SheetImportReport> {
      const ctx = await questions.requireBank(actor, p, 'manage');
      const { uploads } = await read();
      const [upload, ...others] = uploads;
      if (!upload) throw fieldError({ file: ['required'] }, 'No file');
      if (others.length > 0) throw fieldError({ file: ['too_long'] }, 'One spreadsheet at a time');
      if (upload.truncated) throw new AppError('FILE_TOO_LARGE', 'File too large');
      assertSheetBounds(upload.data);
      assertAllowedFile(await detectFileType(upload.data), ['xlsx'], upload.data.length, maxBytes);
      const results = (await readQuestionSheet(upload.data)).map(checkSheetRow);
      // A row may show stored images only if the actor could show them through the form.
      for (const [i, result] of results.entries()) {
        if (!('question' in result)) continue;
        try {
          await questions.checkImages(actor, { ...result.question, imageFileId: null });
        } catch (error) {
          if (!(error instanceof AppError) || !error.details) throw error;
          const [field, codes] = Object.entries(error.details as Record<string, string[]>)[0] ?? [];
          results[i] = {
            row: result.row,
            issues: [{ field: field ?? null, code: codes?.[0] ?? 'invalid' }],
          };
        }
      }
      const valid = results.flatMap((r) => ('question' in r ? [r] : []));
      const rows = valid.map(({ question }) => ({
        id: uuidv7(),
        phaseId: ctx.phase.id,
        itemQ: question.itemQ,
        itemCategory: question.itemCategory ?? null,
        itemDiscipline: question.itemDiscipline,
        itemGrade: question.itemGrade,
        difficulty: question.difficulty,
        itemType: question.itemType,
        itemAnswers: question.itemAnswers,
        itemCorrectAnswers: question.itemCorrectAnswers ?? null,
        createdBy: actor.id,
      }));
      await db.transaction(async (tx) => {
        await questions.openPhaseForChange(tx, ctx.phase.id);
        await repo.insertQuestions(tx, rows);
      });
      return {
        createdCount: rows.length,
        created: rows.map((q, i) => ({ row: valid[i]?.row ?? 0, _id: q.id })),
        refused: results.flatMap((r) =>
          'issues' in r ? r.issues.map((issue) => ({ row: r.row, ...issue })) : [],
        ),
      };
    },
  };
}

export type QuestionImportService = ReturnType<typeof questionImportService>;
