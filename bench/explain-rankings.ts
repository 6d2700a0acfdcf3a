// `npx tsx bench/explain-rankings.ts [students]`: seeds a phase of `students` results (default
// 100,000, as `npm run bench -- rankings` does) in a fresh database — PostgreSQL when
// DATABASE_URL is set, else PGlite — ranks it once, and prints EXPLAIN (ANALYZE, BUFFERS) of the
// exact SQL the rankings repo runs for the benchmark's six pages and its count, then times
// reading elevi.csv's rows the way the download does (every row, in batches from a cursor).
import { performance } from 'node:perf_hooks';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../server/db/client.js';
import { withStatementTimeout } from '../server/db/statement-timeout.js';
import { systemClock } from '../server/lib/clock.js';
import { parseFilter, parseWhere } from '../server/lib/filter/index.js';
import { withDefaultGrade } from '../server/modules/exams/index.js';
import { ensureFreshRanks } from '../server/modules/rankings/rankings.access.js';
import {
  countRankedQuery,
  rankedPageQuery,
  staffRankingResource,
  streamRanked,
} from '../server/modules/rankings/rankings.repo.js';
import { createTestDatabase } from '../server/test/db.js';
import { DEFAULT_PHASE_RULES } from '../shared/schemas/rankings.js';
import { seedResults } from './seed-results.js';

const GRADES = [5, 6, 7, 8, 9, 10, 11, 12];

async function explain(db: Db, title: string, query: { getSQL(): SQL }) {
  const result = (await withStatementTimeout(15_000, () =>
    db.execute(sql`explain (analyze, buffers) ${query}`),
  )) as unknown as {
    rows: Record<string, string>[];
  };
  const plan = result.rows.map((row) => Object.values(row)[0]).join('\n');
  const time = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1];
  console.log(`\n=== ${title}: ${time} ms\n${plan}`);
}

const students = Number(process.argv[2] ?? 100_000);
const database = await createTestDatabase();
try {
  const { db } = database;
  const ids = await seedResults(database, students, false);
  let started = performance.now();
  // Once, as the first read does (a request has 15 s for it; a loaded machine may need more).
  await withStatementTimeout(0, () =>
    ensureFreshRanks(db, systemClock, ids.phase, DEFAULT_PHASE_RULES),
  );
  console.log(`ranked once in ${(performance.now() - started).toFixed(0)} ms`);
  await database.exec('vacuum analyze');
  const scope = { phaseId: ids.phase };
  const pages = [
    { limit: 10, skip: 0 },
    { limit: 10, skip: 500 },
    { limit: 25, skip: 5000, where: { studentGrade: 7 } },
    { limit: 10, skip: 20, where: { studentCounty: 'Iași', studentGrade: 9 } },
    { limit: 10, skip: 0, where: { familyName: { ilike: '%țurc%' }, studentGrade: 6 } },
    { limit: 10, skip: 100, order: 'total DESC', where: { studentGrade: '' } },
  ];
  for (const page of pages) {
    const filter = parseFilter(
      { ...page, where: withDefaultGrade(page.where, GRADES) },
      staffRankingResource,
    );
    await explain(
      db,
      `page ${JSON.stringify(page)}`,
      rankedPageQuery(scope, filter, staffRankingResource),
    );
  }
  const where = parseWhere({ studentCounty: 'Cluj', studentGrade: 8 }, staffRankingResource);
  await explain(db, 'count (Cluj, grade 8)', countRankedQuery(scope, where, staffRankingResource));

  const every = parseFilter(
    { where: withDefaultGrade({ studentGrade: '' }, GRADES) },
    staffRankingResource,
  );
  for (const batch of [1000, 5000]) {
    started = performance.now();
    let rows = 0;
    await withStatementTimeout(120_000, () =>
      streamRanked(
        db,
        scope,
        { ...every, limit: 0, skip: 0 },
        staffRankingResource,
        batch,
        async (r) => {
          rows += r.length;
        },
      ),
    );
    console.log(
      `\nelevi.csv's rows from the cursor, ${batch} a fetch: ${rows} rows in ${(performance.now() - started).toFixed(0)} ms`,
    );
  }
} finally {
  await database.drop();
}
