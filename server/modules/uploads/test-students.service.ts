import type { Count } from '../../../shared/schemas/exams.js';
import type { TestStudentListItem } from '../../../shared/schemas/uploads.js';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../lib/auth-guard.js';
import { forbidden } from '../../lib/errors.js';
import { parseFilter, parseWhere, projectFields } from '../../lib/filter/index.js';
import { toTestStudentDto } from './uploads.dto.js';
import * as repo from './uploads.repo.js';
import { requireTest, type TestIds } from './uploads.scope.js';

export type TestStudentsDeps = { db: Db };

/** The students of a test (SPEC.md §2): the teachers' view of who sat it and how far. */
export function testStudentsService({ db }: TestStudentsDeps) {
  async function scopeOf(actor: Actor, ids: TestIds) {
    const scope = await requireTest(db, actor, ids);
    // Students reach their own answers, never the list of the others.
    if (scope.role === 'student') throw forbidden();
    return scope;
  }

  return {
    /**
     * The phase's students whose grade is one of the test's, with status, score and
     * progress; a coordinator sees only their own students. LoopBack filter, default order
     * `givenName ASC`.
     */
    async listStudents(
      actor: Actor,
      ids: TestIds,
      rawFilter: string | undefined,
    ): Promise<TestStudentListItem[]> {
      const { test, ownerId } = await scopeOf(actor, ids);
      const filter = parseFilter(rawFilter, repo.testStudentsResource(test));
      const rows = await repo.listTestStudents(db, test, filter, ownerId);
      return rows.map((row) => {
        const dto = projectFields(toTestStudentDto(row), filter.fields);
        return { ...dto, studentId: row.studentId };
      });
    },

    /** The twin count of the same students. */
    async countStudents(actor: Actor, ids: TestIds, rawWhere: string | undefined): Promise<Count> {
      const { test, ownerId } = await scopeOf(actor, ids);
      const where = parseWhere(rawWhere ?? '', repo.testStudentsResource(test));
      return { count: await repo.countTestStudents(db, test, where, ownerId) };
    },
  };
}

export type TestStudentsService = ReturnType<typeof testStudentsService>;
