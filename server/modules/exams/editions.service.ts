import { EDITION_LIST_LIMIT } from '../../../shared/constants.js';
import type {
  Count,
  Edition,
  EditionCreateInput,
  EditionListItem,
  EditionPatchInput,
} from '../../../shared/schemas/exams.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { parseFilter, parseWhere } from '../../lib/filter/index.js';
import { uuidv7 } from '../../lib/ids.js';
import * as repo from './editions.repo.js';
import { requireEdition, requireExam } from './exams.access.js';
import { pickFields, toEditionDto } from './exams.dto.js';
import { canManageExam, type ExamAccess, seesWholeExam } from './exams.policy.js';
import { lockExam } from './exams.repo.js';
import { checkTeacherIds } from './exams.service.js';

export type EditionsDeps = { db: Db };

/** A coordinator lists only the editions they coordinate; the others see all of them. */
const visibleIds = (access: ExamAccess) =>
  seesWholeExam(access) ? undefined : access.coordinatedEditionIds;

export function editionsService({ db }: EditionsDeps) {
  async function editionDto(row: repo.EditionRow, tx: Db = db): Promise<Edition> {
    const coordinators = await repo.findCoordinators(tx, [row.id]);
    return toEditionDto(
      row,
      coordinators.map((c) => c.teacherId),
    );
  }

  /** Replaces the coordinators when `teacherIds` was sent; audited. */
  async function saveCoordinators(
    tx: Db,
    actor: Actor,
    editionId: string,
    teacherIds: string[] | undefined,
  ): Promise<void> {
    if (teacherIds === undefined) return;
    const current = (await repo.findCoordinators(tx, [editionId])).map((c) => c.teacherId);
    const next = await checkTeacherIds(tx, 'teacherIds', teacherIds, current);
    await repo.replaceCoordinators(tx, editionId, next);
    await appendAudit(tx, {
      actorId: actor.id,
      action: 'edition.coordinators',
      entityType: 'edition',
      entityId: editionId,
      before: current,
      after: next,
    });
  }

  return {
    /** The exam's editions the actor sees (limit 100 unless asked otherwise). */
    async listEditions(
      actor: Actor,
      examId: string,
      rawFilter: string | undefined,
    ): Promise<EditionListItem[]> {
      const { access } = await requireExam(db, actor, examId);
      const filter = parseFilter(rawFilter, repo.editionsResource, {
        defaultLimit: EDITION_LIST_LIMIT,
      });
      const rows = await repo.listEditions(db, examId, filter, visibleIds(access));
      const coordinators = await repo.findCoordinators(
        db,
        rows.map((r) => r.id),
      );
      return rows.map((row) =>
        pickFields(
          toEditionDto(
            row,
            coordinators.filter((c) => c.editionId === row.id).map((c) => c.teacherId),
          ),
          filter.fields,
          '_id',
        ),
      );
    },

    /** How many of the exam's editions the actor sees match `where`. */
    async countEditions(
      actor: Actor,
      examId: string,
      rawWhere: string | undefined,
    ): Promise<Count> {
      const { access } = await requireExam(db, actor, examId);
      const where = parseWhere(rawWhere ?? '', repo.editionsResource);
      return { count: await repo.countEditions(db, examId, where, visibleIds(access)) };
    },

    /** One edition, or 404 outside the actor's scope. */
    async getEdition(actor: Actor, examId: string, editionId: string): Promise<Edition> {
      const { edition } = await requireEdition(db, actor, examId, editionId);
      return editionDto(edition);
    },

    /** Exam managers create editions; coordinators must be active teachers. Audited. */
    async createEdition(actor: Actor, examId: string, input: EditionCreateInput): Promise<Edition> {
      const { access } = await requireExam(db, actor, examId);
      if (!canManageExam(access)) throw forbidden();
      const created = await db.transaction(async (tx) => {
        // Holds off a concurrent delete of the exam, which refuses exams with editions.
        if (!(await lockExam(tx, examId))) throw notFound('exam');
        const row = await repo.insertEdition(tx, {
          id: uuidv7(),
          examId,
          name: input.name,
          year: input.year ?? null,
          state: input.state ?? 'active',
          termsUrl: input.termsUrl ?? null,
          registrationOpen: input.registrationOpen ?? true,
        });
        await saveCoordinators(tx, actor, row.id, input.teacherIds);
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'edition.create',
          entityType: 'edition',
          entityId: row.id,
          after: { examId, name: row.name, year: row.year },
        });
        return editionDto(row, tx);
      });
      return created;
    },

    /** Exam managers change what was sent (`teacherIds` = coordinators). Audited. */
    async patchEdition(
      actor: Actor,
      examId: string,
      editionId: string,
      patch: EditionPatchInput,
    ): Promise<Edition> {
      const { access } = await requireEdition(db, actor, examId, editionId);
      if (!canManageExam(access)) throw forbidden();
      return db.transaction(async (tx) => {
        const row = await repo.lockEdition(tx, editionId, 'update');
        if (!row) throw notFound('edition');
        const { teacherIds, ...fields } = patch;
        const updated =
          Object.keys(fields).length > 0 ? await repo.updateEdition(tx, editionId, fields) : row;
        if (Object.keys(fields).length > 0) {
          await appendAudit(tx, {
            actorId: actor.id,
            action: 'edition.update',
            entityType: 'edition',
            entityId: editionId,
            before: Object.fromEntries(
              Object.keys(fields).map((k) => [k, row[k as keyof typeof row]]),
            ),
            after: fields,
          });
        }
        await saveCoordinators(tx, actor, editionId, teacherIds);
        return editionDto(updated ?? row, tx);
      });
    },
  };
}

export type EditionsService = ReturnType<typeof editionsService>;
