// The ceiling the exam-day benchmark compares answer writes with: a bare Fastify route doing
// one durable upsert into `answers` (the player's conflict target and "keep the highest seq"
// rule) through a pg Pool of the server's size, with no session lookup, validation, policy or
// logging. Run as its own process: `DATABASE_URL=… PORT=… node --import tsx bench/exam-day-bare.ts`;
// with `WORKERS=n`, n processes share the port, as the Podium server runs.

import cluster from 'node:cluster';
import Fastify from 'fastify';
import pg from 'pg';
import { uuidv7 } from '../server/lib/ids.js';
import { poolSizePerWorker } from '../server/lib/workers.js';

type Body = { studentId: string; itemId: string; submittedAnswer: unknown; seq: number };

const UPSERT = `
  insert into answers (id, test_id, student_id, question_id, submitted_answer, seq, updated_at)
  values ($1, $2, $3, $4, $5, $6, now())
  on conflict (test_id, student_id, question_id) do update
    set submitted_answer = excluded.submitted_answer, seq = excluded.seq, updated_at = excluded.updated_at
    where answers.seq < excluded.seq
  returning seq`;

const workers = Number(process.env.WORKERS ?? 1);
if (cluster.isPrimary && workers > 1) {
  // As the server does (server/lib/workers.ts): each worker accepts its own connections.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  for (let i = 0; i < workers; i += 1) cluster.fork();
  process.on('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    });
  });
} else {
  await serve();
}

async function serve() {
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    // The server's pool size, so both sides get the same connections.
    max: poolSizePerWorker(workers),
  });
  pool.on('error', () => {});

  const app = Fastify({ logger: false });
  app.get('/health', async () => {
    await pool.query('select 1');
    return { ok: true };
  });
  app.put<{ Params: { testId: string }; Body: Body }>('/answers/:testId', async (request) => {
    const b = request.body;
    const r = await pool.query(UPSERT, [
      uuidv7(),
      request.params.testId,
      b.studentId,
      b.itemId,
      JSON.stringify(b.submittedAnswer),
      b.seq,
    ]);
    return { seq: r.rows[0]?.seq ?? b.seq };
  });

  process.on('SIGTERM', () => {
    void app.close().then(() => pool.end().then(() => process.exit(0)));
  });
  await app.listen({
    port: Number(process.env.PORT ?? 3099),
    host: process.env.HOST ?? '127.0.0.1',
    backlog: 4096, // as the server (server/main.ts)
  });
}
