// `npm run bench -- fuzz [--cases 1000] [--seed 1] [--only text] [--concurrency 6] [--skip progress.txt]`: the long fuzz run. Every
// operation of the OpenAPI description (and every hidden route) gets `--cases` cases from the
// seeded generator of server/security/fuzz-cases.ts, on a server built in this process on
// PostgreSQL when DATABASE_URL is set (else PGlite), with the access matrix's seeded world.
// Prints progress per operation, then the figures (cases, operations, answers by status
// class, 5xx count, bodies showing the server's insides, time) and every failure; exits 1 on
// any. `--skip` takes the output of a run cut short and leaves out the operations it finished.
// The same seed makes the same cases; the CI-sized run is server/security/fuzz.api.test.ts.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { figuresLine, runFuzz } from '../server/security/fuzz-run.js';
import { buildTestApp } from '../server/test/app.js';
import { fixedClock } from '../server/test/competition.js';
import { populatedWorld } from '../server/test/world.js';

export async function fuzzCli(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      cases: { type: 'string', default: '1000' },
      seed: { type: 'string', default: '1' },
      only: { type: 'string' },
      concurrency: { type: 'string', default: '6' },
      skip: { type: 'string' },
    },
  });
  const casesPerOperation = Number(values.cases);
  const seed = Number(values.seed);
  const only = values.only;
  // A run cut short resumes: the operations its progress lines name are not fuzzed again.
  const skipped = new Set(
    values.skip
      ? [
          ...readFileSync(values.skip, 'utf8').matchAll(/^\[\d+\/\d+\] (.+?): \d+ cases so far/gm),
        ].map((m) => m[1])
      : [],
  );
  const t = await buildTestApp({
    clock: fixedClock(),
    env: { AUTH_RATE_LIMIT_PER_MINUTE: '100000000' },
  });
  try {
    const w = await populatedWorld(t);
    console.log(
      `fuzz on ${t.database.kind}: seed ${seed}, ${casesPerOperation} cases per operation`,
    );
    const figures = await runFuzz(t, w, {
      seed,
      casesPerOperation,
      concurrency: Number(values.concurrency),
      only: (key: string) => !skipped.has(key) && (only === undefined || key.includes(only)),
      onOperation: (op, done, of, f) =>
        console.log(
          `[${done}/${of}] ${op.key}: ${f.cases} cases so far, ${f.fiveXX} × 5xx, ${f.leaks} showing insides, ${(f.ms / 1000).toFixed(0)} s`,
        ),
    });
    console.log(figuresLine(figures, t.database.kind));
    console.log('slowest cases:');
    for (const s of figures.slowest) console.log(`  ${s.ms} ms ${s.key} ${s.what}`);
    for (const f of figures.failures)
      console.log(`FAIL ${f.key} as ${f.caller}, ${f.what}: ${f.got}`);
    return figures.failures.length === 0 ? 0 : 1;
  } finally {
    await t.close();
  }
}
