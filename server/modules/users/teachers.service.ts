import { MAX_DOWNLOAD_ROWS, type Person } from '../../../shared/schemas/people.js';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../lib/auth-guard.js';
import { fieldError, forbidden, validationFailed } from '../../lib/errors.js';
import { parseFilter, parseWhere, projectFields } from '../../lib/filter/index.js';
import { seesAllTeachers } from './people.policy.js';
import { countPeople } from './people.repo.js';
import { buildSheet, TEACHER_COLUMNS } from './people-export.js';
import {
  listTeachers,
  teachersCondition,
  teachersForDownload,
  teachersResource,
} from './teachers.repo.js';
import { toUserDto } from './users.dto.js';

type Query = { filter?: string; where?: string };

/** Teachers lists, counts and downloads, for active teachers and admins only. */
export function teachersService({ db }: { db: Db }) {
  const check = (actor: Actor) => {
    if (!seesAllTeachers(actor)) throw forbidden();
  };

  return {
    /** A page of teachers with their staff/exam-admin flags, projected by `fields`. */
    async listTeachers(actor: Actor, query: Query): Promise<Person[]> {
      const filter = parseFilter(query.filter, teachersResource);
      if (filter.include !== undefined && filter.include !== null) {
        // Teachers have no relations to include; say so rather than ignore it.
        throw validationFailed([{ code: 'invalid', path: ['include'] }]);
      }
      check(actor);
      const rows = await listTeachers(db, filter, teachersCondition(filter.where));
      return rows.map((row) =>
        projectFields(
          { ...toUserDto(row), isStaff: row.isStaff, isExamAdmin: row.isExamAdmin },
          filter.fields,
        ),
      );
    },

    /** How many teachers match `where`. */
    async countTeachers(actor: Actor, query: Query): Promise<{ count: number }> {
      const where = parseWhere(query.where ?? '', teachersResource);
      check(actor);
      return { count: await countPeople(db, teachersCondition(where)) };
    },

    /** The teachers matching the filter, by county then names, as an xlsx file. */
    async downloadTeachers(actor: Actor, query: Query): Promise<Buffer> {
      const filter = parseFilter(query.filter, teachersResource);
      check(actor);
      const rows = await teachersForDownload(
        db,
        teachersCondition(filter.where),
        MAX_DOWNLOAD_ROWS + 1,
      );
      if (rows.length > MAX_DOWNLOAD_ROWS) throw fieldError({ filter: ['too_long'] });
      return buildSheet('Profesori', TEACHER_COLUMNS, rows);
    },
  };
}
