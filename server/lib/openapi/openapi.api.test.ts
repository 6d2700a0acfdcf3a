import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Document, Spectral } from '@stoplight/spectral-core';
// A CommonJS package whose names Node's ESM loader does not see: its default is its exports.
import parsers from '@stoplight/spectral-parsers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ACCESS_RULES } from '../../security/access-rules.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { errorBodySchema, SERVICES } from './index.js';
import { ruleset } from './ruleset.js';

// The OpenAPI description as clients get it (`/api/docs/json`), held to Spectral's
// recommended rules and Podium's own (ruleset.ts), and to what the routes really do.

type Media = { schema?: Record<string, unknown>; example?: unknown };
type Operation = {
  operationId?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { name: string; in: string; description?: string; example?: unknown }[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { description: string; content?: Record<string, Media> }>;
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  tags: { name: string; description: string }[];
  security: unknown[];
};

const API = '/api/v1';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

let t: TestApp;
let web: string;
let doc: Doc;

beforeAll(async () => {
  // With a built web app, so that its catch-all route exists and must stay out.
  web = await mkdtemp(path.join(tmpdir(), 'podium-web-'));
  await writeFile(path.join(web, 'index.html'), '<!doctype html><div id="root"></div>');
  t = await buildTestApp({ webDist: web });
  doc = (await t.app.inject({ url: '/api/docs/json' })).json();
});
afterAll(async () => {
  await t.close();
  await rm(web, { recursive: true, force: true });
});

const operations = () =>
  Object.entries(doc.paths).flatMap(([url, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ url, method: m, op: item[m] as Operation })),
  );

describe('the OpenAPI description', () => {
  it('passes spectral:oas and the project rules with no error and no warning', async () => {
    const spectral = new Spectral();
    spectral.setRuleset(ruleset);
    const results = await spectral.run(new Document(JSON.stringify(doc), parsers.Json));
    const lines = results.map(
      (r) =>
        `${['error', 'warn', 'info', 'hint'][r.severity]} ${r.code} ${r.path.join('.')}: ${r.message}`,
    );
    if (lines.length) console.log(lines.join('\n'));
    expect(lines).toEqual([]);
  }, 60_000);

  it('names every operation with a unique operationId', () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
    const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(twice).toEqual([]);
    expect(doc.paths[`${API}/exam-mgmt/exams`]?.get?.operationId).toBe('getExams');
    expect(doc.paths[`${API}/exam-mgmt/exams/{examId}`]?.get?.operationId).toBe('getExam');
  });

  it('asks no token of the public routes, and a token of the guarded ones', () => {
    const publicOps = [
      ['post', '/auth-service/auth/signup'],
      ['post', '/auth-service/auth/login'],
      ['post', '/auth-service/auth/password/forgot'],
      ['post', '/auth-service/auth/password/reset'],
      ['get', '/auth-service/auth/token/{uid}/{code}'],
      ['get', '/auth-service/auth/oauth/token/{uid}/{code}'],
      ['get', '/health'],
    ];
    for (const [method, url] of publicOps) {
      const op = doc.paths[`${API}${url}`]?.[method as string];
      expect(op?.security, `${method} ${url}`).toEqual([]);
      expect(op?.responses['401'], `${method} ${url}`).toBeUndefined();
    }
    const whoami = doc.paths[`${API}/auth-service/auth/whoami`]?.get;
    expect(whoami?.security).toEqual([{ bearer: [] }]);
    expect(whoami?.responses['401']).toBeDefined();
    // A role guard can refuse a signed-in caller.
    expect(doc.paths[`${API}/user-mgmt/students`]?.get?.responses['403']).toBeDefined();
  });

  it('asks a token exactly where the access rules turn anonymous callers away', () => {
    for (const { url, method, op } of operations()) {
      const key = `${method.toUpperCase()} ${url}`;
      const rule = ACCESS_RULES[key];
      expect(rule, key).toBeDefined();
      const isPublic = rule?.ok.includes('anonymous');
      expect(op.security, key).toEqual(isPublic ? [] : [{ bearer: [] }]);
    }
  });

  it('leaves out the web app, the documentation pages and the hidden slash twins', () => {
    const urls = Object.keys(doc.paths);
    expect(urls.filter((u) => !u.startsWith(`${API}/`))).toEqual([]);
    expect(urls.filter((u) => u.endsWith('/'))).toEqual([]);
    expect(t.app.routeTable.some((r) => r.url === '/*')).toBe(true);
  });

  it('serves the same description as YAML, with no anchors or aliases for tools to trip on', async () => {
    const yaml = await t.app.inject({ url: '/api/docs/yaml' });
    expect(yaml.statusCode).toBe(200);
    expect(yaml.body).toContain('operationId: getExams');
    expect(yaml.body.match(/[&*]a\d+\b/g)).toBeNull();
  });

  it('has one path template for a user, by id or e-mail', () => {
    expect(Object.keys(doc.paths).filter((u) => /\/users\/\{[^}]+\}$/.test(u))).toEqual([
      `${API}/user-mgmt/users/{user}`,
    ]);
    const item = doc.paths[`${API}/user-mgmt/users/{user}`];
    expect(item?.get && item.patch).toBeTruthy();
  });

  it('describes multipart uploads with their file parts', () => {
    const upload =
      doc.paths[
        `${API}/upload-mgmt/exams/{examId}/editions/{editionId}/phases/{phaseId}/tests/{testId}/items/{itemId}/answers`
      ]?.post;
    const form = upload?.requestBody?.content['multipart/form-data']?.schema as {
      properties: Record<string, { format?: string }>;
    };
    expect(form.properties.item_0?.format).toBe('binary');
    const image = doc.paths[`${API}/resource-mgmt/files`]?.post;
    const imageForm = image?.requestBody?.content['multipart/form-data']?.schema as {
      properties: Record<string, { format?: string }>;
      required: string[];
    };
    expect(imageForm.properties.file?.format).toBe('binary');
    expect(imageForm.required).toEqual(['file']);
  });

  it('describes downloads as files of the types they are sent as', () => {
    for (const url of [
      `${API}/user-mgmt/users/{id}/personal-data`,
      `${API}/user-mgmt/my-personal-data`,
    ]) {
      const ok = doc.paths[url]?.get?.responses['200'] as {
        content: Record<string, { schema: { format?: string } }>;
      };
      expect(Object.keys(ok.content), url).toEqual(['application/json', 'application/zip']);
      expect(ok.content['application/zip']?.schema.format).toBe('binary');
    }
    const zip = doc.paths[`${API}/diploma-generator/jobs/{jobId}/file`]?.get?.responses['200'] as {
      content: Record<string, unknown>;
    };
    expect(Object.keys(zip.content)).toEqual(['application/zip']);
  });

  it('describes the sign-in redirects as redirects, not as a 200', () => {
    for (const path of ['auth/oidc/start', 'auth/oauth/callback']) {
      const responses = Object.keys(doc.paths[`${API}/auth-service/${path}`]?.get?.responses ?? {});
      expect(responses, path).toContain('302');
      expect(responses, path).not.toContain('200');
      expect(
        doc.paths[`${API}/auth-service/${path}`]?.get?.responses['302']?.content,
      ).toBeUndefined();
    }
  });

  it("groups operations by SPEC.md's services, in its order", () => {
    const names = doc.tags.map((tag) => tag.name);
    expect(names).toEqual(SERVICES.map((s) => s.name).filter((n) => names.includes(n)));
    expect(names.slice(0, 3)).toEqual(['Auth service', 'Test management', 'Test player']);
    for (const { url, method, op } of operations()) {
      expect(op.tags?.length, `${method} ${url}`).toBe(1);
      expect(names, `${method} ${url}`).toContain(op.tags?.[0]);
    }
  });

  it("gives examples that the routes' own schemas accept", () => {
    let checked = 0;
    const refused: string[] = [];
    const check = (what: string, zodSchema: z.ZodType, example: unknown) => {
      const parsed = zodSchema.safeParse(example);
      if (parsed.error) refused.push(`${what}: ${JSON.stringify(parsed.error.issues)}`);
      checked += 1;
    };
    for (const route of t.app.routeTable) {
      if (route.hidden || !route.url.startsWith(`${API}/`)) continue;
      const url = route.url.replace(/:(\w+)/g, '{$1}');
      const op = doc.paths[url]?.[route.method.toLowerCase()];
      if (!op) continue;
      const schema = route.schema as Record<string, unknown> | undefined;
      const body = schema?.body;
      const bodyExample = op.requestBody?.content['application/json']?.example;
      if (body instanceof z.ZodType && bodyExample !== undefined) {
        check(`${route.method} ${url} body`, body, bodyExample);
      }
      const responses = (schema?.response ?? {}) as Record<string, unknown>;
      for (const [status, zodSchema] of Object.entries(responses)) {
        const example = op.responses[status]?.content?.['application/json']?.example;
        if (zodSchema instanceof z.ZodType && example !== undefined) {
          check(`${route.method} ${url} ${status}`, zodSchema, example);
        }
      }
    }
    expect(refused).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('shows list filters that the lists accept', async () => {
    const admin = await t.createUser({ type: 'admin' });
    const headers = { authorization: (await t.login(admin.email, admin.password)).authorization };
    let checked = 0;
    for (const { url, method, op } of operations()) {
      if (method !== 'get' || url.includes('{')) continue;
      for (const param of op.parameters ?? []) {
        if (param.in !== 'query' || !['filter', 'where'].includes(param.name)) continue;
        const query = new URLSearchParams({ [param.name]: String(param.example) });
        const res = await t.app.inject({ url: `${url}?${query}`, headers });
        expect(res.statusCode, `${url}?${query}: ${res.body}`).toBe(200);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });

  it('describes the error envelope the server really sends', async () => {
    const answers = await Promise.all([
      t.app.inject({ url: `${API}/auth-service/auth/whoami` }),
      t.app.inject({ url: `${API}/no-such-route` }),
      t.app.inject({ method: 'POST', url: `${API}/auth-service/auth/login`, payload: {} }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([401, 404, 400]);
    for (const answer of answers) {
      expect(errorBodySchema.safeParse(answer.json()).error).toBeUndefined();
    }
    // And every 4xx of the description points at it (a 5xx may say more: health's 503).
    const ref = '#/components/schemas/ErrorBody';
    for (const { op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (/^4/.test(status))
          expect(response.content?.['application/json']?.schema?.$ref).toBe(ref);
      }
    }
  });
});
