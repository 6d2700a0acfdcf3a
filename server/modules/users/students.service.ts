import { MAX_DOWNLOAD_ROWS, type Person } from '../../../shared/schemas/people.js';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../lib/auth-guard.js';
import { fieldError, forbidden, notFound, validationFailed } from '../../lib/errors.js';
import { parseFilter, parseWhere, projectFields } from '../../lib/filter/index.js';
import { canListStudents, canUseExamAdmin, studentScopeOf } from './people.policy.js';
import { countPeople, editionsOfStudents, examRoleOf } from './people.repo.js';
import { buildSheet, STUDENT_COLUMNS } from './people-export.js';
import {
  listStudents,
  studentsCondition,
  studentsForDownload,
  studentsResource,
} from './students.repo.js';
import { describeUsers } from './users.service.js';

type Query = { filter?: string; where?: string; examAdmin?: string };

const MAX_INCLUDES = 5;

/** `include`: only the `studentEditions` relation, as a name, a list or `{relation}` objects. */
function wantsStudentEditions(include: unknown): boolean {
  if (include === undefined || include === null) return false;
  const items = Array.isArray(include) ? include : [include];
  if (items.length > MAX_INCLUDES)
    throw validationFailed([{ code: 'too_long', path: ['include'] }]);
  items.forEach((item, i) => {
    const isName = item === 'studentEditions';
    const isRelation =
      typeof item === 'object' &&
      item !== null &&
      Object.keys(item).length === 1 &&
      (item as { relation?: unknown }).relation === 'studentEditions';
    if (!isName && !isRelation) {
      throw validationFailed([
        { code: 'invalid', path: Array.isArray(include) ? ['include', i] : ['include'] },
      ]);
    }
  });
  return items.length > 0;
}

/** Students lists, counts and downloads, each limited in SQL to the actor's scope. */
export function studentsService({ db }: { db: Db }) {
  /** The scope of the actor, narrowed to one competition when `examAdmin` is asked for. */
  async function scopeFor(actor: Actor, examId: string | undefined) {
    if (!canListStudents(actor)) throw forbidden();
    if (examId !== undefined) {
      const { examExists, hasRole } = await examRoleOf(db, examId, actor.id);
      // No hint whether the competition exists when the actor has no role on it.
      if (!examExists || !canUseExamAdmin(actor, hasRole)) throw notFound('exam');
    }
    return studentScopeOf(actor);
  }

  return {
    /** A page of the students the actor may see, projected by `fields`; never anyone else. */
    async listStudents(actor: Actor, query: Query): Promise<Person[]> {
      const filter = parseFilter(query.filter, studentsResource);
      const withEditions = wantsStudentEditions(filter.include);
      const scope = await scopeFor(actor, query.examAdmin);
      const rows = await listStudents(
        db,
        filter,
        studentsCondition(filter.where, scope, query.examAdmin),
      );
      const editions = withEditions
        ? await editionsOfStudents(
            db,
            rows.map((r) => r.id),
          )
        : new Map<string, { editionId: string }[]>();
      const dtos = await describeUsers(db, rows, editions);
      return dtos.map((dto) => {
        const projected = projectFields(dto, filter.fields);
        return withEditions ? { ...projected, studentEditions: dto.studentEditions } : projected;
      });
    },

    /** How many students of the actor's scope match `where`. */
    async countStudents(actor: Actor, query: Query): Promise<{ count: number }> {
      const where = parseWhere(query.where ?? '', studentsResource);
      const scope = await scopeFor(actor, query.examAdmin);
      return { count: await countPeople(db, studentsCondition(where, scope, query.examAdmin)) };
    },

    /** The active students of the actor's scope matching the filter, as an xlsx file. */
    async downloadStudents(actor: Actor, query: Query): Promise<Buffer> {
      const filter = parseFilter(query.filter, studentsResource);
      const scope = await scopeFor(actor, query.examAdmin);
      const condition = studentsCondition(filter.where, scope, query.examAdmin);
      const rows = await studentsForDownload(db, condition, MAX_DOWNLOAD_ROWS + 1);
      if (rows.length > MAX_DOWNLOAD_ROWS) throw fieldError({ filter: ['too_long'] });
      return buildSheet('Elevi', STUDENT_COLUMNS, rows);
    },
  };
}
