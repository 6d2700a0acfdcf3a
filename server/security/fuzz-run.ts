import type { TestApp } from '../test/app.js';
import type { Caller, World } from '../test/world.js';
import { ruleOf } from './access-rules.js';
import { type Base, CASE_KINDS, type FuzzCase, makeCase, preview } from './fuzz-cases.js';
import { type OpenApiDocument, type Operation, operationsOf } from './fuzz-operations.js';
import { hashOf, seededRandom } from './fuzz-random.js';
import { sampleOf } from './json-sample.js';
import {
  type Answer,
  MULTIPART_FIELD,
  paramsFor,
  pngForm,
  type Sent,
  send,
  worldPick,
} from './route-calls.js';

// Runs the fuzzer's cases against a server on the seeded world (server/test/world.ts) and
// holds every answer to two rules: never a 5xx, and no body that shows the server's insides
// (a stack trace, SQL, a database error, a file path of the server). The CI-sized run is
// server/security/fuzz.api.test.ts; the long one `npm run bench -- fuzz`.

export type FuzzOptions = {
  seed: number;
  /** Cases per operation; the first CASE_KINDS.length take one kind each. */
  casesPerOperation: number;
  /** Operations fuzzed at once (default 1); their cases go one after another. */
  concurrency?: number;
  /** Only the operations whose key this accepts (default: all). */
  only?(key: string): boolean;
  /** Called after each operation, e.g. to print progress. */
  onOperation?(op: Operation, done: number, of: number, figures: FuzzFigures): void;
};

export type FuzzFailure = { key: string; caller: string; what: string; got: string };

export type FuzzFigures = {
  seed: number;
  operations: number;
  cases: number;
  /** Cases by the answer's status class. */
  byStatus: Record<string, number>;
  fiveXX: number;
  leaks: number;
  failures: FuzzFailure[];
  /** The slowest cases, slowest first: where a long run spends its time. */
  slowest: { key: string; what: string; ms: number }[];
  ms: number;
  /** CPU time of this process (the server and the fuzzer; PGlite too), in ms. */
  cpuMs: number;
};

const PASSWORD = 'parola-buna-123';

/** What a body must never show, by what it would give away. */
const INSIDES: readonly [string, RegExp][] = [
  ['a stack trace', /\n\s+at \S.*[:(]\d+:\d+\)?/],
  ['a stack frame', /\bat (?:async )?[\w$.<>]+ \((?:file:|node:|\/)/],
  [
    'a server path',
    /(?:\/work\/|\/home\/|\/root\/|\/tmp\/podium-|node_modules|file:\/\/\/|\.[cm]?[jt]s:\d+)/,
  ],
  [
    'SQL',
    /\b(?:select\s[^"]{0,200}\sfrom\s|insert\s+into\s|update\s+"?\w+"?\s+set\s|delete\s+from\s)/i,
  ],
  [
    'a database error',
    /(?:syntax error at or near|violates (?:foreign key|unique|check|not-null) constraint|relation \\?"\w+\\?"|column \\?"\w+\\?" |invalid input syntax for|Failed query|drizzle|SQLSTATE|duplicate key value)/i,
  ],
];

/** What of the server's insides a body shows (and the request did not send), if anything. */
export function insidesShown(body: string, sentText: string): string | undefined {
  for (const [name, pattern] of INSIDES) {
    const match = body.match(pattern);
    if (match && !sentText.includes(match[0])) return `${name}: ${preview(match[0])}`;
  }
  return undefined;
}

/** Callers tried first for an operation: one who may call it reaches the most code. */
const PREFERRED: readonly Caller[] = [
  'studentA',
  'admin',
  'examAdmin',
  'staff',
  'ownTeacher',
  'studentB',
  'otherTeacher',
  'reviewer',
  'mediator',
];

function callerFor(key: string): Caller {
  const ok = ruleOf(key)?.ok ?? [];
  // Public routes are fuzzed signed in too (anonymous cases come on top).
  if (ok.length === 10) return 'admin';
  return PREFERRED.find((c) => ok.includes(c)) ?? 'admin';
}

/** Reads (GET) first, then writes, deletions, and last what closes or removes the world. */
function groups(ops: Operation[]): Operation[][] {
  const weight = (op: Operation) =>
    (op.method === 'GET' ? 0 : op.method === 'DELETE' ? 2 : 1) + (ruleOf(op.key)?.last ? 10 : 0);
  const byWeight = new Map<number, Operation[]>();
  for (const op of ops) byWeight.set(weight(op), [...(byWeight.get(weight(op)) ?? []), op]);
  return [...byWeight.entries()].sort(([a], [b]) => a - b).map(([, list]) => list);
}

/** What is wrong with an answer: a 5xx, or a body that shows the server's insides. */
function judge(answer: Answer, c: FuzzCase): string | undefined {
  if (answer.statusCode >= 500) return `${answer.statusCode} ${answer.body.slice(0, 200)}`;
  const type = String(answer.headers['content-type'] ?? '');
  const isText = /json|text|csv|javascript|yaml/.test(type) || type === '';
  const shown = isText ? insidesShown(answer.body, sentText(c)) : undefined;
  return shown ? `${answer.statusCode} shows ${shown}` : undefined;
}

export async function runFuzz(t: TestApp, w: World, options: FuzzOptions): Promise<FuzzFigures> {
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  const docRes = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  const doc = docRes.json() as OpenApiDocument;
  const ops = operationsOf(doc, t.app.routeTable).filter((op) => options.only?.(op.key) ?? true);
  const figures: FuzzFigures = {
    seed: options.seed,
    operations: ops.length,
    cases: 0,
    byStatus: {},
    fiveXX: 0,
    leaks: 0,
    failures: [],
    slowest: [],
    ms: 0,
    cpuMs: 0,
  };
  // Each caller's session, checked before each operation: a case may have ended it (a
  // changed address), and then the caller signs in again.
  const sessions = new Map<Caller, Record<string, string>>();
  const signIn = async (caller: Caller) => {
    const signed = w.callers[caller];
    return signed ? await t.login(signed.email, PASSWORD).catch(() => signed.headers) : {};
  };
  const checkedSession = async (caller: Caller) => {
    const signed = w.callers[caller];
    if (!signed) return {};
    const current = sessions.get(caller) ?? signed.headers;
    const check = await t.app.inject({
      method: 'GET',
      url: '/api/v1/auth-service/auth/whoami',
      headers: current,
    });
    const session = check.statusCode === 200 ? current : await signIn(caller);
    sessions.set(caller, session);
    return session;
  };

  const fuzzOperation = async (op: Operation) => {
    const caller = callerFor(op.key);
    const rule = ruleOf(op.key);
    const rng = seededRandom(hashOf(`${options.seed}:${op.key}`));
    // A route that ends the session it is called with gets sessions of its own.
    let headers = rule?.ownSession ? await signIn(caller) : await checkedSession(caller);
    for (let n = 0; n < options.casesPerOperation; n += 1) {
      const base = baseRequest(op, w, headers);
      const kind = CASE_KINDS[n % CASE_KINDS.length] ?? 'body-type';
      const c = makeCase(base, kind, rng);
      const sentAt = performance.now();
      const answer = await sendCase(t, c);
      noteTime(figures, op.key, c.what, performance.now() - sentAt);
      figures.cases += 1;
      const klass = answer ? `${Math.floor(answer.statusCode / 100)}xx` : 'unsendable';
      figures.byStatus[klass] = (figures.byStatus[klass] ?? 0) + 1;
      if (!answer) continue;
      if (rule?.ownSession && answer.statusCode < 300 && !c.anonymous) {
        headers = await signIn(caller);
      }
      const failure = judge(answer, c);
      if (failure) {
        if (failure.startsWith('5')) figures.fiveXX += 1;
        else figures.leaks += 1;
        figures.failures.push({
          key: op.key,
          caller: c.anonymous ? 'anonymous' : caller,
          what: c.what,
          got: failure,
        });
      }
    }
  };

  // Operations run a few at a time (their cases one after another), group by group: reads,
  // writes, deletions, and last what closes or removes the world.
  let done = 0;
  for (const group of groups(ops)) {
    const queue = [...group];
    const worker = async () => {
      for (let op = queue.shift(); op; op = queue.shift()) {
        await fuzzOperation(op);
        done += 1;
        figures.ms = Math.round(performance.now() - started);
        options.onOperation?.(op, done, ops.length, figures);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency ?? 1 }, worker));
  }
  figures.ms = Math.round(performance.now() - started);
  const cpu = process.cpuUsage(cpuAtStart);
  figures.cpuMs = Math.round((cpu.user + cpu.system) / 1000);
  return figures;
}

const SLOWEST_KEPT = 10;

function noteTime(figures: FuzzFigures, key: string, what: string, ms: number) {
  const list = figures.slowest;
  if (list.length >= SLOWEST_KEPT && (list.at(-1)?.ms ?? 0) >= ms) return;
  list.push({ key, what, ms: Math.round(ms) });
  list.sort((a, b) => b.ms - a.ms);
  list.length = Math.min(list.length, SLOWEST_KEPT);
}

/** The request the cases start from: one that passes the operation's schemas. */
function baseRequest(op: Operation, w: World, session: Record<string, string>): Base {
  const rule = ruleOf(op.key);
  const pick = worldPick(w);
  const params: Record<string, string> = { ...paramsFor(op.key, w), ...rule?.params?.(w) };
  const query: Record<string, string> = {};
  for (const q of op.query) {
    if (!q.required) continue;
    const v = sampleOf(q.schema, pick, q.name, op.root);
    if (v !== undefined) query[q.name] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  const path = op.key.slice(op.key.indexOf(' ') + 1);
  const headers: Record<string, string> = { ...session };
  const sent: Sent = { method: op.method, url: path, headers };
  const multipartField = MULTIPART_FIELD[op.key];
  let body: unknown;
  if (multipartField) {
    const form = pngForm(multipartField, rule?.fields?.(w));
    Object.assign(headers, form.headers);
    sent.payload = form.payload;
    body = rule?.fields?.(w) ?? {};
  } else {
    body = rule?.body?.(w) ?? (op.body ? sampleOf(op.body, pick, '', op.root) : undefined);
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      sent.payload = JSON.stringify(body);
    }
  }
  return { op, sent, body, params, query, multipartField, path };
}

/** Sends a case; undefined when the request cannot even be put on the wire. */
async function sendCase(t: TestApp, c: FuzzCase) {
  try {
    return await send(t, c);
  } catch (error) {
    // light-my-request refuses what no HTTP client could send (a header with a raw control
    // character); the server never sees such a request.
    if (error instanceof TypeError || (error as { code?: string }).code === 'ERR_INVALID_CHAR') {
      return undefined;
    }
    throw error;
  }
}

function sentText(c: FuzzCase): string {
  const payload = Buffer.isBuffer(c.payload) ? c.payload.toString('utf8') : (c.payload ?? '');
  let url = c.url;
  try {
    url = decodeURIComponent(c.url);
  } catch {}
  return `${c.url} ${url} ${payload} ${JSON.stringify(c.headers)}`;
}

/** The figures as one line for a report. */
export function figuresLine(f: FuzzFigures, databaseKind: string): string {
  const perOp = f.operations > 0 ? Math.round(f.cases / f.operations) : 0;
  const status = Object.entries(f.byStatus)
    .sort()
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  return `fuzz on ${databaseKind}, seed ${f.seed}: ${f.cases} cases over ${f.operations} operations (${perOp} per operation; ${status}), ${f.fiveXX} × 5xx, ${f.leaks} bodies showing insides, ${(f.ms / 1000).toFixed(1)} s (${(f.cpuMs / 1000).toFixed(1)} s of CPU)`;
}
