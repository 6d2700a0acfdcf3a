import { randomBytes } from 'node:crypto';
import type {
  Test,
  TestCreate,
  TestDetails,
  TestPaper,
  TestPointsInput,
  TestPointsResult,
  TestPreview,
  TestPublishResult,
} from '../../../shared/schemas/tests.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import { AppError, fieldError, forbidden, notFound, validationFailed } from '../../lib/errors.js';
import { uuidv7 } from '../../lib/ids.js';
import type { PhaseIds } from '../../lib/route-params.js';
import { type PhaseContext, requirePhase, syncAllPublished } from '../exams/index.js';
import type { FilesService } from '../questions/index.js';
import { hasMarkedItems, rescoreTest } from '../results/index.js';
import { generateTest } from './generate-test.js';
import type { PdfPrinter } from './pdf.js';
import { paperImageIds, renderTestPaper } from './test-paper.js';
import {
  type TestScope,
  toTestDetailsDto,
  toTestDto,
  toTestPaperDto,
  toTestPreviewDto,
} from './tests.dto.js';
import { canManageTests, canSeeCorrectAnswers, canViewTests } from './tests.policy.js';
import * as repo from './tests.repo.js';

export type PhaseParams = PhaseIds;
export type TestParams = PhaseParams & { testId: string };

export type TestsDeps = {
  db: Db;
  /** Stored images as data URLs: the printed page has no network. */
  images: Pick<FilesService, 'imageDataUrl'>;
  printer: PdfPrinter;
  /** A fresh seed for each draw; random unless a caller needs it fixed. */
  newSeed?: () => string;
};

/** PostgreSQL's unique_violation, also when Drizzle wraps it (DrizzleQueryError.cause). */
function isUniqueViolation(e: unknown): boolean {
  let cause = e;
  for (let depth = 0; depth < 5 && typeof cause === 'object' && cause !== null; depth++) {
    if ((cause as { code?: unknown }).code === '23505') return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

const gradeTaken = () =>
  new AppError('TEST_ALREADY_EXISTS', 'A grade already has a test in this phase', {
    grades: ['test_grade_duplicate'],
  });
const invalidDate = (message: string) =>
  new AppError('INVALID_TEST_DATE', message, { startDate: ['invalid_date'] });
const phaseClosed = () => new AppError('PHASE_CLOSED', 'The phase is closed');

const scopeOf = (ctx: PhaseContext): TestScope => ({
  examId: ctx.exam.id,
  editionId: ctx.edition.id,
  examName: ctx.exam.name,
  editionName: ctx.edition.name,
  phaseName: ctx.phase.name,
});

export function testsService({ db, images, printer, newSeed }: TestsDeps) {
  const seed = newSeed ?? (() => randomBytes(16).toString('hex'));

  /**
   * The phase in the actor's scope with the right asked for: tests are "not found" for
   * whoever may not view them; a viewer asking to manage gets 403.
   */
  async function requireTests(actor: Actor, p: PhaseParams, need: 'view' | 'manage') {
    const ctx = await requirePhase(db, actor, p.examId, p.editionId, p.phaseId);
    if (!canViewTests(ctx.access)) throw notFound('phase');
    if (need === 'manage' && !canManageTests(ctx.access)) throw forbidden();
    return ctx;
  }

  async function loadTest(p: TestParams, ctx: PhaseContext) {
    const row = await repo.findTest(db, ctx.phase.id, p.testId);
    if (!row) throw notFound('test');
    return { row, items: await repo.findTestItems(db, row.id) };
  }

  /**
   * The tests of the phase, for printing a paper. SPEC.md §2: a download the actor has no right
   * to is 403 (`msg_no_rights_download_test`), so a teacher outside the phase's staff — an
   * edition coordinator, a teacher with no role — who names a test that exists is refused,
   * not told it is missing; a path that names no test stays 404.
   */
  async function requirePaperTests(actor: Actor, p: TestParams) {
    try {
      return await requireTests(actor, p, 'view');
    } catch (e) {
      if (e instanceof AppError && e.code === 'NOT_FOUND' && (await repo.testOnPath(db, p))) {
        throw forbidden();
      }
      throw e;
    }
  }

  async function getPaper(actor: Actor, p: TestParams): Promise<TestPaper> {
    const ctx = await requirePaperTests(actor, p);
    const { row, items } = await loadTest(p, ctx);
    return toTestPaperDto(row, items, scopeOf(ctx));
  }

  return {
    /**
     * Draws a test from the phase's bank. Guarantees, under the phase's lock: the grades are
     * the exam's, each in no other test of the phase (also against concurrent calls); the
     * dates lie within the phase; the counts come from questions of those grades and the
     * subject, spread over categories, scored to the exact total; the seed is stored; the
     * phase's all-published flag becomes false.
     */
    async createTest(actor: Actor, p: PhaseParams, input: TestCreate): Promise<Test> {
      const ctx = await requireTests(actor, p, 'manage');
      const examGrades = new Set(ctx.exam.grades);
      if (input.grades.some((g) => !examGrades.has(g))) {
        throw fieldError({ grades: ['invalid'] }, 'A grade the exam does not have');
      }
      const start = new Date(input.startDate);
      const end = new Date(input.endDate);
      if (!(start < end)) throw invalidDate('The start must be before the end');

      return db.transaction(async (tx) => {
        const phase = await repo.lockPhase(tx, ctx.phase.id);
        if (!phase) throw notFound('phase');
        if (phase.state === 'closed') throw phaseClosed();
        if (start < phase.startDate || end > phase.endDate) {
          throw invalidDate('The test must lie within the phase');
        }
        if ((await repo.findTakenGrades(tx, phase.id, input.grades)).length > 0) {
          throw gradeTaken();
        }
        const bank = await repo.findBank(tx, phase.id, input.grades, input.subject);
        const testSeed = seed();
        const drawn = generateTest({
          bank,
          counts: { low: input.easyCount, medium: input.mediumCount, hard: input.hardCount },
          totalScore: input.totalScore,
          seed: testSeed,
          weightByDifficulty: input.weightByDifficulty ?? false,
        });
        if (!drawn.ok) {
          throw new AppError(
            'INSUFFICIENT_TEST_ITEMS_FOR_CRITERIA',
            'Not enough questions for the criteria',
            drawn.shortages,
          );
        }
        const items = drawn.items.map(({ questionId, position, score }) => ({
          questionId,
          position,
          score,
        }));
        let created: repo.TestRow;
        try {
          created = await repo.insertTest(
            tx,
            {
              id: uuidv7(),
              phaseId: phase.id,
              name: input.name,
              grades: input.grades,
              subject: input.subject,
              startDate: start,
              endDate: end,
              durationMinutes: input.duration,
              totalScore: input.totalScore,
              easyCount: input.easyCount,
              mediumCount: input.mediumCount,
              hardCount: input.hardCount,
              weightByDifficulty: input.weightByDifficulty ?? false,
              seed: testSeed,
              createdBy: actor.id,
            },
            items,
          );
        } catch (error) {
          if (isUniqueViolation(error)) throw gradeTaken();
          throw error;
        }
        await syncAllPublished(tx, phase.id);
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'test.create',
          entityType: 'test',
          entityId: created.id,
          after: {
            phaseId: phase.id,
            name: created.name,
            grades: created.grades,
            subject: created.subject,
            seed: testSeed,
            items,
          },
        });
        // Read back with what the list shows of it (its counts by category as drawn).
        const row = await repo.findTest(tx, phase.id, created.id);
        return toTestDto(
          row ?? { ...created, itemCount: items.length, categoryCounts: [] },
          scopeOf(ctx),
        );
      });
    },

    /** The phase's tests by first grade, for its managers and staff. */
    async listTests(actor: Actor, p: PhaseParams): Promise<Test[]> {
      const ctx = await requireTests(actor, p, 'view');
      const rows = await repo.listTests(db, ctx.phase.id);
      return rows.map((row) => toTestDto(row, scopeOf(ctx)));
    },

    /** A test with its items, never their correct answers. */
    async getTest(actor: Actor, p: TestParams): Promise<TestPreview> {
      const ctx = await requireTests(actor, p, 'view');
      const { row, items } = await loadTest(p, ctx);
      return toTestPreviewDto(row, items, scopeOf(ctx));
    },

    /** A test with its items' correct answers and scores: managers only. */
    async getTestDetails(actor: Actor, p: TestParams): Promise<TestDetails> {
      const ctx = await requireTests(actor, p, 'view');
      if (!canSeeCorrectAnswers(ctx.access)) throw forbidden();
      const { row, items } = await loadTest(p, ctx);
      return toTestDetailsDto(row, items, scopeOf(ctx));
    },

    /** What the printed paper shows (the print view renders it). */
    getPaper,

    /**
     * The paper as a PDF printed by Chromium; PDF_UNAVAILABLE (503) when Chromium cannot
     * run. Images are embedded, so the printed page needs no network.
     */
    async downloadPaper(actor: Actor, p: TestParams): Promise<{ paper: TestPaper; pdf: Buffer }> {
      const paper = await getPaper(actor, p);
      const ids = paperImageIds(paper.items);
      const urls = await Promise.all(ids.map((id) => images.imageDataUrl(id)));
      const found = new Map<string, string>();
      ids.forEach((id, i) => {
        const url = urls[i];
        // A paper without one of its figures would mislead every student who gets it.
        if (!url) throw new AppError('PAPER_IMAGE_MISSING', 'An image of the paper is missing');
        found.set(id, url);
      });
      const pdf = await printer.print(renderTestPaper({ ...paper, images: found }));
      return { paper, pdf };
    },

    /**
     * Deletes a test nobody has started (no attempt or answer, else TEST_HAS_ATTEMPTS) in an
     * open phase; its grades become free and the all-published flag is recomputed.
     */
    async deleteTest(actor: Actor, p: TestParams): Promise<void> {
      const ctx = await requireTests(actor, p, 'manage');
      await db.transaction(async (tx) => {
        const phase = await repo.lockPhase(tx, ctx.phase.id);
        if (!phase) throw notFound('phase');
        // Locked so that no attempt can begin between the check and the delete.
        const row = await repo.findTest(tx, phase.id, p.testId, true);
        if (!row) throw notFound('test');
        if (phase.state === 'closed') throw phaseClosed();
        if (await repo.hasAttempts(tx, [row.id])) {
          throw new AppError('TEST_HAS_ATTEMPTS', 'A student has started this test');
        }
        const items = await repo.findTestItems(tx, row.id);
        await repo.deleteTest(tx, row.id);
        await syncAllPublished(tx, phase.id);
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'test.delete',
          entityType: 'test',
          entityId: row.id,
          before: {
            ...toTestDto(row, scopeOf(ctx)),
            items: items.map((i) => ({ questionId: i.questionId, score: i.score })),
          },
        });
      });
    },

    /**
     * Sets each item's points (SPEC.md §3 assignedItems): every item once, adding up to the
     * test's total. Attempts already scored are scored again in the same transaction, so
     * totals and admissions never see a mix; items marked by people keep their marks, and
     * their worth cannot change (ITEM_ALREADY_MARKED). Audited.
     */
    async setItemPoints(
      actor: Actor,
      p: TestParams,
      input: TestPointsInput,
    ): Promise<TestPointsResult> {
      const ctx = await requireTests(actor, p, 'manage');
      return db.transaction(async (tx) => {
        const phase = await repo.lockPhase(tx, ctx.phase.id);
        if (!phase) throw notFound('phase');
        const row = await repo.findTest(tx, phase.id, p.testId, true);
        if (!row) throw notFound('test');
        if (phase.state === 'closed') throw phaseClosed();
        const items = await repo.findTestItems(tx, row.id);
        const wanted = new Map(input.assignedItems.map((a) => [a.itemId, a.score]));
        if (wanted.size !== items.length || items.some((i) => !wanted.has(i.questionId))) {
          throw validationFailed([{ code: 'invalid', path: ['assignedItems'] }]);
        }
        const sum = [...wanted.values()].reduce((n, score) => n + Math.round(score * 100), 0);
        if (sum !== Math.round(row.totalScore * 100)) {
          throw validationFailed([{ code: 'score_sum', path: ['assignedItems'] }]);
        }
        const changed = items.filter((i) => wanted.get(i.questionId) !== Number(i.score));
        if (
          await hasMarkedItems(
            tx,
            row.id,
            changed.map((i) => i.questionId),
          )
        ) {
          throw new AppError('ITEM_ALREADY_MARKED', 'People have marked an answer of the item');
        }
        const assigned = changed.map((i) => ({
          itemId: i.questionId,
          score: wanted.get(i.questionId) ?? 0,
        }));
        await repo.setItemScores(tx, row.id, assigned);
        const rescored = await rescoreTest(tx, row.id, new Date());
        if (changed.length > 0) {
          await appendAudit(tx, {
            actorId: actor.id,
            action: 'test.points',
            entityType: 'test',
            entityId: row.id,
            before: changed.map((i) => ({ itemId: i.questionId, score: Number(i.score) })),
            after: { assignedItems: assigned, rescored },
          });
        }
        return { rescoredItems: rescored.changedItems, rescoredStudents: rescored.students };
      });
    },

    /** Publishes every test of the phase; `allPublished` is true when it has tests. */
    async publishTests(actor: Actor, p: PhaseParams): Promise<TestPublishResult> {
      const ctx = await requireTests(actor, p, 'manage');
      return db.transaction(async (tx) => {
        const phase = await repo.lockPhase(tx, ctx.phase.id);
        if (!phase) throw notFound('phase');
        const published = await repo.publishTests(tx, phase.id);
        const allPublished = await syncAllPublished(tx, phase.id);
        if (published.length > 0) {
          await appendAudit(tx, {
            actorId: actor.id,
            action: 'tests.publish',
            entityType: 'phase',
            entityId: phase.id,
            after: { testIds: published, allPublished },
          });
        }
        return { publishedCount: published.length, allPublished };
      });
    },
  };
}

export type TestsService = ReturnType<typeof testsService>;
