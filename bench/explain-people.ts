// `npx tsx bench/explain-people.ts`: seeds 50,000 students (as the people-list benchmark does)
// in a fresh database — PostgreSQL when DATABASE_URL is set, else PGlite — runs VACUUM ANALYZE, and
// prints EXPLAIN (ANALYZE, BUFFERS) of the exact SQL the students repo generates for the
// list's typical queries, with a check that none of them scans the whole users table.
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../server/db/client.js';
import { parseFilter } from '../server/lib/filter/index.js';
import type { StudentScope } from '../server/modules/users/people.policy.js';
import { countQuery } from '../server/modules/users/people.repo.js';
import {
  studentsCondition,
  studentsPageQuery,
  studentsResource,
} from '../server/modules/users/students.repo.js';
import { createTestDatabase } from '../server/test/db.js';
import { seedPeople } from './seed-people.js';

/** What the web app sends for a search box holding `text`. */
const search = (text: string) => ({
  or: [{ familyName: { ilike: `%${text}%` } }, { givenName: { ilike: `%${text}%` } }],
});
const SEARCH = search('ștef');

async function explain(
  db: Db,
  title: string,
  query: { getSQL(): SQL; toSQL(): { sql: string; params: unknown[] } },
) {
  const { sql: text, params } = query.toSQL();
  const result = (await db.execute(sql`explain (analyze, buffers) ${query}`)) as unknown as {
    rows: Record<string, string>[];
  };
  const plan = result.rows.map((row) => Object.values(row)[0]).join('\n');
  const seqScanOnUsers = /Seq Scan on users\b/.test(plan);
  console.log(`\n=== ${title}\n-- SQL: ${text}\n-- params: ${JSON.stringify(params)}\n${plan}`);
  console.log(`-- Seq Scan on users: ${seqScanOnUsers ? 'YES' : 'no'}`);
  return seqScanOnUsers;
}

const database = await createTestDatabase();
try {
  const { db } = database;
  const started = Date.now();
  const seeded = await seedPeople(db, 50_000);
  console.log(
    `${database.kind}: seeded 50,000 students and 500 teachers in ${Date.now() - started} ms`,
  );
  // VACUUM as autovacuum would after a bulk load: it moves the GIN indexes' pending-list
  // entries into the trigram trees (until then the planner rightly avoids them), then ANALYZE.
  await database.exec('vacuum analyze');

  const admin: StudentScope = { kind: 'all' };
  const teacher: StudentScope = { kind: 'teacher', teacherId: seeded.teacherIds[0] ?? '' };
  const page = (filter: object, scope: StudentScope) => {
    const parsed = parseFilter(JSON.stringify(filter), studentsResource);
    return studentsPageQuery(db, parsed, studentsCondition(parsed.where, scope));
  };
  const count = (where: object, scope: StudentScope) => {
    const parsed = parseFilter(JSON.stringify({ where }), studentsResource);
    return countQuery(db, studentsCondition(parsed.where, scope));
  };
  const scans = [
    await explain(
      db,
      '(a) name search "ștef", first page (admin)',
      page({ where: SEARCH, limit: 10, skip: 0 }, admin),
    ),
    await explain(db, '(b) count of that search (admin)', count(SEARCH, admin)),
    await explain(
      db,
      '(c) county Iași, page 3 ordered by familyName (admin)',
      page({ where: { county: 'Iași' }, order: 'familyName ASC', limit: 10, skip: 20 }, admin),
    ),
    await explain(db, '(d) first page, no filter (admin)', page({ limit: 10, skip: 0 }, admin)),
    await explain(
      db,
      '(e) name search "ștef", first page (teacher scope: own students + a competition as staff)',
      page({ where: SEARCH, limit: 10, skip: 0 }, teacher),
    ),
    await explain(db, '(f) name search "popescu", count (admin)', count(search('popescu'), admin)),
    await explain(
      db,
      '(g) name search "ionesc" and county Iași, page 1 (admin)',
      page({ where: { and: [search('ionesc'), { county: 'Iași' }] }, limit: 10, skip: 0 }, admin),
    ),
  ];
  console.log(
    `\nQueries with a Seq Scan on users: ${scans.filter(Boolean).length} of ${scans.length}`,
  );
} finally {
  await database.drop();
}
