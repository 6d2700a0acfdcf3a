// `npm run bench -- <name> [--duration s] [--connections n]`: runs a load benchmark against a
// real server started in this process, on PostgreSQL when DATABASE_URL is set (else PGlite),
// and prints latency percentiles, throughput and errors. Names: see BENCHMARKS below.
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { buildTestApp } from '../server/test/app.js';
import { seedPeople } from './seed-people.js';

type Options = { duration: number; connections: number };
type Target = {
  title: string;
  url: string;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
};
type Benchmark = (base: string, t: Awaited<ReturnType<typeof buildTestApp>>) => Promise<Target[]>;

/** Settings a benchmark needs beyond the defaults (e.g. no per-minute limit in its way). */
const BENCH_ENV: Record<string, NodeJS.ProcessEnv> = {
  'forgot-password': { AUTH_RATE_LIMIT_PER_MINUTE: '100000000' },
};

const BENCHMARKS: Record<string, Benchmark> = {
  /**
   * `POST …/password/forgot` for an address with an account and one without: the answers
   * must take the same time, or their latency tells which addresses have accounts.
   */
  'forgot-password': async (base, t) => {
    const u = await t.createUser({ email: 'exista@example.ro' });
    const target = (title: string, email: string): Target => ({
      title,
      url: `${base}/api/v1/auth-service/auth/password/forgot`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    return [
      // The first seconds of a fresh server are slower whatever the address: not compared.
      target('warm-up', 'warm-up@example.ro'),
      target('known address', u.email),
      target('unknown address', 'nu-exista@example.ro'),
      target('known address again', u.email),
      target('unknown again', 'nu-exista@example.ro'),
    ];
  },
  /** Session resolution on every request: health (database round trip) and whoami. */
  'api-baseline': async (base, t) => {
    const u = await t.createUser();
    const headers = await t.login(u.email, u.password);
    return [
      { title: 'GET /health', url: `${base}/api/v1/health` },
      { title: 'GET /auth/whoami', url: `${base}/api/v1/auth-service/auth/whoami`, headers },
    ];
  },
  /** The students list on 50,000 students: name search, county filter with paging, count. */
  'people-list': async (base, t) => {
    await seedPeople(t.database.db, 50_000);
    // As autovacuum would after the bulk load (GIN pending lists merged, statistics fresh).
    await t.database.exec('vacuum analyze');
    const a = await t.createUser({ type: 'admin' });
    const headers = await t.login(a.email, a.password);
    const api = `${base}/api/v1/user-mgmt/students`;
    const q = (value: object) => encodeURIComponent(JSON.stringify(value));
    const search = (text: string) => ({
      or: [{ familyName: { ilike: `%${text}%` } }, { givenName: { ilike: `%${text}%` } }],
    });
    return [
      {
        title: 'search "ștef" page 0',
        url: `${api}?filter=${q({ where: search('ștef'), limit: 10, skip: 0 })}`,
        headers,
      },
      {
        title: 'count "ștef"',
        url: `${api}/count?where=${q(search('ștef'))}`,
        headers,
      },
      {
        title: 'county Iași page 3',
        url: `${api}?filter=${q({ where: { county: 'Iași' }, order: 'familyName ASC', limit: 10, skip: 30 })}`,
        headers,
      },
      {
        title: 'search+county page 0',
        url: `${api}?filter=${q({ where: { and: [search('pop'), { county: 'Cluj' }] }, limit: 10, skip: 0 })}`,
        headers,
      },
    ];
  },
};

// The end of a phase (rankings, CSV export, diplomas) seeds its own phase and takes its own
// options (bench/results-bench.ts).
if (['rankings', 'export', 'diplomas'].includes(process.argv[2] ?? '')) {
  const { resultsBenchCli } = await import('./results-bench.js');
  process.exit(await resultsBenchCli(process.argv[2] ?? '', process.argv.slice(3)));
}

// Paper booklets scanned and read back (bench/scan-bench.ts), with its own options.
if (process.argv[2] === 'scan') {
  const { scanBenchCli } = await import('./scan-bench.js');
  process.exit(await scanBenchCli(process.argv.slice(3)));
}

// exam-day runs the server in its own process on PostgreSQL and takes its own options.
if (process.argv[2] === 'exam-day') {
  const { examDayCli } = await import('./exam-day.js');
  process.exit(await examDayCli(process.argv.slice(3)));
}

// db-outage stops PostgreSQL under two instances while students answer (bench/cluster-pgbouncer.ts).
if (process.argv[2] === 'db-outage') {
  const { outageCli } = await import('./cluster-pgbouncer.js');
  process.exit(await outageCli(process.argv.slice(3)));
}

// first-load drives the system Chromium through the real server and takes its own options.
if (process.argv[2] === 'first-load') {
  const { firstLoadCli } = await import('./first-load.js');
  process.exit(await firstLoadCli(process.argv.slice(3)));
}

// zip and unhint compare the hand-written file formats with libraries (bench/formats-bench.ts).
if (['zip', 'unhint'].includes(process.argv[2] ?? '')) {
  const { formatsBenchCli } = await import('./formats-bench.js');
  process.exit(await formatsBenchCli(process.argv[2] ?? '', process.argv.slice(3)));
}

// fuzz sends thousands of hostile requests per operation and takes its own options.
if (process.argv[2] === 'fuzz') {
  const { fuzzCli } = await import('./fuzz.js');
  process.exit(await fuzzCli(process.argv.slice(3)));
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '50' },
  },
});
const name = positionals[0] ?? 'api-baseline';
const bench = BENCHMARKS[name];
if (!bench) {
  console.error(
    `Unknown benchmark "${name}". Known: ${[...Object.keys(BENCHMARKS), 'exam-day', 'db-outage', 'first-load', 'fuzz', 'rankings', 'export', 'diplomas', 'zip', 'unhint', 'scan'].join(', ')}`,
  );
  process.exit(2);
}
const opts: Options = {
  duration: Number(values.duration),
  connections: Number(values.connections),
};

const t = await buildTestApp({ env: BENCH_ENV[name] });
await t.app.listen({ port: 0, host: '127.0.0.1' });
const address = t.app.server.address();
if (!address || typeof address === 'string') throw new Error('no address');
const base = `http://127.0.0.1:${address.port}`;
console.log(
  `${name} on ${t.database.kind}, ${opts.connections} connections, ${opts.duration} s per target`,
);
try {
  for (const target of await bench(base, t)) {
    const r = await autocannon({
      url: target.url,
      headers: target.headers,
      method: target.method,
      body: target.body,
      connections: opts.connections,
      duration: opts.duration,
    });
    console.log(
      `${target.title.padEnd(22)} ${r.requests.average.toFixed(0).padStart(7)} req/s  mean ${r.latency.average.toFixed(2)} ms  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  max ${r.latency.max} ms  errors ${r.errors + r.non2xx}`,
    );
  }
} finally {
  await t.close();
}
