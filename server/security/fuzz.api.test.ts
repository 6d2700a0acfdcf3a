import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/app.js';
import { fixedClock } from '../test/competition.js';
import { populatedWorld, type World } from '../test/world.js';
import { CASE_KINDS } from './fuzz-cases.js';
import { type OpenApiDocument, operationsOf } from './fuzz-operations.js';
import { figuresLine, insidesShown, runFuzz } from './fuzz-run.js';
import { routeKey } from './route-calls.js';

// The CI-sized fuzz run: every operation of the OpenAPI description (and every hidden route)
// gets one case of each kind — wrong types, hostile texts, broken shapes, malformed JSON and
// multipart, wrong content types, odd query values and JSON filters, bad path ids, odd headers
// and an anonymous one — as a caller its access rule lets in. No answer may be a 5xx or show a
// stack trace, SQL or a server path. `npm run bench -- fuzz` runs ≥ 1,000 cases per operation.

let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await buildTestApp({
    clock: fixedClock(),
    env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000000' },
  });
  w = await populatedWorld(t);
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe('fuzzing from the OpenAPI description', () => {
  it('covers every registered route', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const keys = new Set(operationsOf(doc as OpenApiDocument, t.app.routeTable).map((o) => o.key));
    const missing = t.app.routeTable
      .filter((r) => r.method !== 'HEAD')
      .map(routeKey)
      .filter((k) => !keys.has(k));
    expect(missing).toEqual([]);
  });

  it('answers no case with a 5xx or a body showing the server’s insides', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? 20_261_125);
    const figures = await runFuzz(t, w, { seed, casesPerOperation: CASE_KINDS.length });
    console.info(figuresLine(figures, t.database.kind));
    console.info(figures.slowest.map((s) => `${s.ms} ms ${s.key} ${s.what}`).join('\n'));
    expect(figures.failures.map((f) => `${f.key} as ${f.caller}, ${f.what}: ${f.got}`)).toEqual([]);
    expect(figures.cases).toBeGreaterThan(1000);
  }, 900_000);

  it('knows the insides a body must not show', () => {
    expect(
      insidesShown('Error: x\n    at Object.<anonymous> (/work/main/server/app.ts:12:3)', ''),
    ).toBeDefined();
    expect(insidesShown('{"message":"Failed query: select id from users"}', '')).toBeDefined();
    expect(insidesShown('{"message":"relation \\"users\\" does not exist"}', '')).toBeDefined();
    expect(insidesShown('{"error":{"code":"VALIDATION_FAILED"}}', '')).toBeUndefined();
  });
});
