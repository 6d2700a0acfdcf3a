// `npm run bench -- <name> [--duration s] [--connections n]`: runs a load benchmark against a
// real server started in this process, on PostgreSQL when DATABASE_URL is set (else PGlite),
// and prints latency percentiles, throughput and errors. Names: see BENCHMARKS below.
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { buildTestApp } from '../server/test/app.js';

type Options = { duration: number; connections: number };
type Target = { title: string; url: string; headers?: Record<string, string> };
type Benchmark = (base: string, t: Awaited<ReturnType<typeof buildTestApp>>) => Promise<Target[]>;

const BENCHMARKS: Record<string, Benchmark> = {
  /** Session resolution on every request: health (database round trip) and whoami. */
  'api-baseline': async (base, t) => {
    const u = await t.createUser();
    const headers = await t.login(u.email, u.password);
    return [
      { title: 'GET /health', url: `${base}/api/v1/health` },
      { title: 'GET /auth/whoami', url: `${base}/api/v1/auth-service/auth/whoami`, headers },
    ];
  },
};

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
  console.error(`Unknown benchmark "${name}". Known: ${Object.keys(BENCHMARKS).join(', ')}`);
  process.exit(2);
}
const opts: Options = {
  duration: Number(values.duration),
  connections: Number(values.connections),
};

const t = await buildTestApp();
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
      connections: opts.connections,
      duration: opts.duration,
    });
    console.log(
      `${target.title.padEnd(22)} ${r.requests.average.toFixed(0).padStart(7)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  max ${r.latency.max} ms  errors ${r.errors + r.non2xx}`,
    );
  }
} finally {
  await t.close();
}
