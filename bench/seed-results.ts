// A phase of many results for the rankings, export and diplomas benchmarks (results-bench.ts)
// and bench/explain-rankings.ts, written by SQL in bulk.
import { performance } from 'node:perf_hooks';
import type { Database } from '../server/db/client.js';
import { withStatementTimeout } from '../server/db/statement-timeout.js';

/**
 * A competition whose phase has `students` results: students (grades 5–12, all counties),
 * their teachers, enrolments, participants and phase totals, written by SQL in bulk (the
 * rankings module's triggers note the change, so the first read ranks them).
 */
export async function seedResults(database: Database, students: number, closed: boolean) {
  const started = performance.now();
  const ids = await database.db.execute(
    'select gen_random_uuid() as exam, gen_random_uuid() as edition, gen_random_uuid() as phase, gen_random_uuid() as admin',
  );
  const row = (ids as unknown as { rows: Record<string, string>[] }).rows[0] ?? {};
  const { exam, edition, phase } = row as { exam: string; edition: string; phase: string };
  const teachers = Math.max(1, Math.round(students / 40));
  const sql = `
    insert into exams (id, name, name_normalized, subject, grades)
      values ('${exam}', 'Olimpiada de Matematică', 'olimpiada de matematica', 'math', '{5,6,7,8,9,10,11,12}');
    insert into editions (id, exam_id, name) values ('${edition}', '${exam}', '2025–2026');
    insert into phases (id, edition_id, name, type, start_date, end_date, state)
      values ('${phase}', '${edition}', 'Etapa județeană', 'online', now() - interval '10 days',
        now() - interval '9 days', '${closed ? 'closed' : 'open'}');
    create temporary table bench_teachers as
      select gen_random_uuid() as id, g as n from generate_series(1, ${teachers}) g;
    -- Each student looks up a teacher by number: without a key that is a scan per student.
    alter table bench_teachers add primary key (n);
    insert into users (id, email, type, state, registered, given_name, family_name,
        given_name_normalized, family_name_normalized, county, school)
      select id, 'profesor' || n || '@bench.podium.ro', 'teacher', 'active', true,
        (array['Radu','Mihaela','Ștefan','Ioana'])[1 + n % 4],
        (array['Matei','Țurcanu','Bălan','Șerban'])[1 + n % 4] || n,
        (array['radu','mihaela','stefan','ioana'])[1 + n % 4],
        (array['matei','turcanu','balan','serban'])[1 + n % 4] || n,
        'Iași', 'Colegiul Național'
      from bench_teachers;
    create temporary table bench_students as
      select gen_random_uuid() as id, g as n, 5 + g % 8 as grade,
        (array['Alba','Arad','Argeș','Bacău','Bihor','Cluj','Iași','Timiș','Vâlcea','București'])[1 + g % 10] as county
      from generate_series(1, ${students}) g;
    insert into users (id, email, type, state, registered, given_name, family_name,
        given_name_normalized, family_name_normalized, county, school, grade, teacher_ref)
      select s.id, 'elev' || s.n || '@bench.podium.ro', 'student', 'active', true,
        (array['Ana','Ștefania','Ionuț','Mădălina','Radu','Irina','Tudor','Ilinca'])[1 + s.n % 8],
        (array['Popescu','Țurcanu','Bălan','Șandru','Mureșan','Ionescu','Stan','Lazăr'])[1 + (s.n / 8) % 8] || (s.n % 997),
        (array['ana','stefania','ionut','madalina','radu','irina','tudor','ilinca'])[1 + s.n % 8],
        (array['popescu','turcanu','balan','sandru','muresan','ionescu','stan','lazar'])[1 + (s.n / 8) % 8] || (s.n % 997),
        s.county, 'Școala Gimnazială nr. ' || (1 + s.n % 60), s.grade,
        (select id from bench_teachers where n = 1 + s.n % ${teachers})
      from bench_students s;
    insert into edition_students (edition_id, student_id, grade)
      select '${edition}', id, grade from bench_students;
    insert into phase_students (phase_id, student_id) select '${phase}', id from bench_students;
    insert into phase_results (phase_id, student_id, points, tests)
      select '${phase}', id, round((random() * 56)::numeric) / 2, 1 from bench_students;
    insert into phase_prizes (phase_id, student_id, prize)
      select '${phase}', id, (array['first','second','third','mention'])[1 + n % 4]
      from bench_students where n % 10 = 0;
    drop table bench_students;
    drop table bench_teachers;
  `;
  // A bulk load, not a request: no statement limit (connections open with exam day's 5 s).
  await withStatementTimeout(0, async () => {
    await database.exec(sql);
    // As autovacuum would after a bulk load: statistics the planner can trust.
    await database.exec('vacuum analyze');
  });
  console.log(
    `seeded ${students.toLocaleString('en')} results and ${teachers} teachers in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { exam, edition, phase };
}
