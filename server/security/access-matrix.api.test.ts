import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../app.js';
import { buildTestApp, type TestApp } from '../test/app.js';
import { fixedClock } from '../test/competition.js';
import { CALLERS, type Caller, populatedWorld, type World } from '../test/world.js';
import { type AccessRule, ruleOf } from './access-rules.js';
import { type Answer, routeKey, send, validRequest } from './route-calls.js';

// The role × ownership access matrix: every route Fastify registered (its route table, so a
// route added later is in it without anyone listing it) is called as each caller of the seeded
// world — anonymous, two students, the coordinator who is student A's teacher, another
// teacher, a reviewer, a mediator, the exam's admin teacher, its staff and a platform admin —
// with student A's resources in its path, and every answer is held to the route's rule in
// access-rules.ts. Any 2xx a rule does not allow fails, as does a denial of the wrong class
// (DESIGN.md: out of scope 404, in scope but not allowed 403), a route no rule covers, and a
// 2xx body that shows a student's address or answer to someone who may not read it.

let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await buildTestApp({
    clock: fixedClock(),
    env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000000' },
  });
  w = await populatedWorld(t);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const PASSWORD = 'parola-buna-123';
const WRITE_ORDER: Record<string, number> = {
  GET: 0,
  HEAD: 0,
  POST: 1,
  PUT: 1,
  PATCH: 1,
  DELETE: 2,
};

/** The routes in the order the matrix calls them: reads, writes, deletions, then the `last`. */
function callOrder(routes: readonly RegisteredRoute[]) {
  const weight = (r: RegisteredRoute) => {
    const rule = ruleOf(routeKey(r));
    const isExamDeletion = routeKey(r) === 'DELETE /api/v1/exam-mgmt/exams/{examId}';
    return (WRITE_ORDER[r.method] ?? 1) + (rule?.last ? 10 : 0) + (isExamDeletion ? 10 : 0);
  };
  return [...routes].sort((a, b) => weight(a) - weight(b));
}

/** What a caller must get when the rule does not let them through. */
function deniedStatus(rule: AccessRule, caller: Caller): number {
  if (caller === 'anonymous') return 401;
  return rule.notFound?.includes(caller) ? 404 : 403;
}

/** Texts of student A and B that only those who may read that student's data may see. */
function secretsOf(world: World) {
  const ofA = [world.studentA.email, world.canary.studentA];
  const ofB = [world.studentB.email, world.canary.studentB];
  const seesA: Caller[] = ['studentA', 'ownTeacher', 'examAdmin', 'staff', 'admin'];
  const seesB: Caller[] = ['studentB', 'otherTeacher', 'examAdmin', 'staff', 'admin'];
  return (caller: Caller) => [
    // A password hash reaches nobody.
    '$argon2',
    ...(seesA.includes(caller) ? [] : ofA),
    ...(seesB.includes(caller) ? [] : ofB),
  ];
}

/** The text a body shows: a spreadsheet's cells, else the body as text. */
async function shownText(answer: Answer): Promise<string> {
  const type = String(answer.headers['content-type'] ?? '');
  if (!type.includes('spreadsheetml')) return answer.body;
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(answer.raw as unknown as ArrayBuffer);
  const cells: string[] = [];
  book.eachSheet((sheet) =>
    sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.value ?? '')))),
  );
  return cells.join('\n');
}

describe('access matrix', () => {
  it('has a rule for every registered route', () => {
    const missing = t.app.routeTable.map(routeKey).filter((key) => !ruleOf(key));
    expect(
      missing,
      `These routes have no access rule. Add each to ACCESS_RULES in server/security/access-rules.ts, saying who may call it (the matrix treats a route without a rule as allowed to nobody):\n  ${missing.join('\n  ')}`,
    ).toEqual([]);
  });

  it('lets each caller do what its rule allows and nothing more', async () => {
    const forbiddenTexts = secretsOf(w);
    const failures: string[] = [];
    const counts = { calls: 0, allowed: 0, refused: 0 };
    const routes = callOrder(t.app.routeTable);
    // Denied calls first, on every route, while the world is whole; then the allowed ones.
    const plan: { route: RegisteredRoute; caller: Caller; allowed: boolean }[] = [];
    for (const isLastGroup of [false, true]) {
      const group = routes.filter((r) => Boolean(ruleOf(routeKey(r))?.last) === isLastGroup);
      for (const allowed of [false, true]) {
        for (const route of group) {
          const rule = ruleOf(routeKey(route)) ?? { ok: [] };
          for (const caller of CALLERS) {
            if (rule.ok.includes(caller) === allowed) plan.push({ route, caller, allowed });
          }
        }
      }
    }
    for (const { route, caller, allowed } of plan) {
      const key = routeKey(route);
      const rule = ruleOf(key) ?? { ok: [] };
      const request = validRequest(route, w, caller, {
        body: rule.body?.(w),
        params: rule.params?.(w),
        query: rule.query?.(w),
        fields: rule.fields?.(w),
      });
      const signed = w.callers[caller];
      if (rule.ownSession && signed) {
        Object.assign(request.headers, await t.login(signed.email, PASSWORD));
      }
      const answer = await send(t, request);
      counts.calls += 1;
      // A call that ends the caller's other sessions ended the world's one too: sign in again.
      if (rule.ownSession && signed && answer.statusCode < 300) {
        Object.assign(signed.headers, await t.login(signed.email, PASSWORD));
      }
      const message = answer.code ? ` ${answer.code} (${answer.body.slice(0, 160)})` : '';
      const got = `${answer.statusCode}${message}`;
      const where = `${key} as ${caller}`;
      if (answer.code === 'VALIDATION_FAILED' && caller !== 'anonymous') {
        failures.push(
          `${where}: the matrix's request does not pass the route's schema (${answer.body.slice(0, 300)}); give the rule a body`,
        );
        continue;
      }
      const is2xx = answer.statusCode >= 200 && answer.statusCode < 300;
      if (allowed) {
        counts.allowed += 1;
        const blocked =
          [401, 403].includes(answer.statusCode) ||
          (answer.statusCode === 404 && answer.code === 'NOT_FOUND');
        if (blocked && !rule.unreachable) {
          failures.push(`${where}: allowed by its rule, got ${got}`);
        }
      } else {
        counts.refused += 1;
        if (is2xx && !(rule.done && !rule.done(answer.body))) {
          failures.push(`${where}: UNEXPECTED ${got}: the rule does not allow this caller`);
        } else if (!is2xx && answer.statusCode !== deniedStatus(rule, caller)) {
          failures.push(`${where}: expected ${deniedStatus(rule, caller)}, got ${got}`);
        }
      }
      if (is2xx && answer.raw.length > 0) {
        const text = await shownText(answer);
        const sentText = `${request.url} ${String(request.payload ?? '')}`;
        for (const secret of forbiddenTexts(caller)) {
          if (text.includes(secret) && !sentText.includes(secret)) {
            failures.push(`${where}: ${got} shows «${secret}», which this caller may not read`);
          }
        }
      }
    }
    const routeCount = t.app.routeTable.length;
    console.info(
      `access matrix: ${routeCount} routes × ${CALLERS.length} callers, ${counts.calls} calls (${counts.allowed} allowed by the rules, ${counts.refused} refused)`,
    );
    expect(failures).toEqual([]);
    expect(counts.calls).toBe(routeCount * CALLERS.length);
  }, 600_000);
});
