import type { LightMyRequestResponse } from 'fastify';
import { z } from 'zod';
import type { RegisteredRoute } from '../app.js';
import type { TestApp } from '../test/app.js';
import { multipartForm, onePixelPng } from '../test/forms.js';
import type { Caller, World } from '../test/world.js';
import { type JsonSchema, sampleOf } from './json-sample.js';

// How the access matrix and the fuzzer call any route of the route table on the seeded world:
// the route's key, the ids its path names, and a body and query that pass its schemas.

/** `METHOD /path/{param}`, the OpenAPI spelling: the key of the access rules. */
export const routeKey = (r: Pick<RegisteredRoute, 'method' | 'url'>) =>
  `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`;

/** The JSON Schema of one part of a route's schema (zod, as the routes declare it), if any. */
export function partSchema(
  route: RegisteredRoute,
  part: 'body' | 'querystring' | 'params',
): JsonSchema | undefined {
  const zodPart = (route.schema as Record<string, unknown> | undefined)?.[part];
  if (!(zodPart instanceof z.ZodType)) return undefined;
  return z.toJSONSchema(zodPart, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** The ids a path names, chosen from the world by the route's service and parameter. */
export function paramsFor(key: string, w: World): Record<string, string> {
  const hybrid = key.includes('/upload-mgmt/');
  const phase = hybrid ? w.hybrid : w.online;
  const test = hybrid ? w.hybridTest : w.onlineTest;
  const id = (): string => {
    if (key.includes('/files/{id}')) return w.fileId;
    if (key.includes('/open-exams/')) return w.edition.id;
    if (key.includes('/teachers/{id}')) return w.spareTeacher.id;
    return w.studentA.id;
  };
  return {
    examId: w.exam.id,
    editionId: w.edition.id,
    phaseId: phase.id,
    testId: test.id,
    questionId: w.bankQuestion.id,
    studentId: w.studentA.id,
    itemId: hybrid ? w.hybridItemId : w.openItemId,
    answerId: w.answerId,
    fileId: w.fileId,
    mailId: w.mailId,
    // Student A's own id in place of a session's or a notification's: nobody's, so not found.
    sessionId: w.studentA.id,
    notificationId: w.studentA.id,
    id: id(),
    // A teacher's code is set on a teacher's own address; the rest name student A's.
    email: key.endsWith('/teacher-codes') ? w.coordinator.email : w.studentA.email,
    uid: w.studentA.id,
    code: 'cod-necunoscut',
  };
}

/** The route's URL with its parameters filled. */
export function fillPath(url: string, params: Record<string, string>): string {
  return url.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${url}`);
    return encodeURIComponent(value);
  });
}

/** Strings a body needs from the world, by the property that holds them. */
export function worldPick(w: World) {
  return (name: string, s: JsonSchema): unknown => {
    if (s.format !== 'uuid' && !(s.type === 'string' && name === 'email')) return undefined;
    switch (name) {
      case 'studentIds':
      case 'students':
      case 'studentId':
        return w.studentA.id;
      case 'itemId':
        return w.openItemId;
      case 'mediatorTeacher':
        return w.mediator.id;
      case 'gradingTeachers':
        return w.reviewer.id;
      case 'adminTeacherIds':
      case 'staffTeacherIds':
      case 'teacherIds':
        return w.otherTeacher.id;
      case 'answerFiles':
        return w.answerFileId;
      case 'ids':
        return w.bankQuestion.id;
      case 'uid':
        return w.studentA.id;
      case 'email':
        return w.studentA.email;
      default:
        return undefined;
    }
  };
}

export type Sent = {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
};

/** A multipart body with one small PNG under `field`, after these text fields. */
export function pngForm(field: string, fields: Record<string, string> = {}) {
  return multipartForm([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    { name: field, filename: 'pagina.png', type: 'image/png', value: onePixelPng() },
  ]);
}

/** Routes that read multipart bodies (their schema has none): the field their files go in. */
export const MULTIPART_FIELD: Record<string, string> = {
  'POST /api/v1/resource-mgmt/files': 'file',
  'POST /api/v1/resource-mgmt/exams/{examId}/editions/{editionId}/phases/{phaseId}/items/files':
    'image',
  'POST /api/v1/data-import/exams/{examId}/editions/{editionId}/phases/{phaseId}/items/files':
    'image',
  'POST /api/v1/resource-mgmt/exams/{examId}/editions/{editionId}/phases/{phaseId}/items/import':
    'file',
  'POST /api/v1/upload-mgmt/exams/{examId}/editions/{editionId}/phases/{phaseId}/tests/{testId}/items/{itemId}/answers':
    'item_0',
  'POST /api/v1/upload-mgmt/exams/{examId}/editions/{editionId}/phases/{phaseId}/tests/{testId}/students/{studentId}/items/{itemId}/answers':
    'item_0',
};

/** A request that passes the route's schemas, for one caller (no headers for anonymous). */
export function validRequest(
  route: RegisteredRoute,
  w: World,
  caller: Caller,
  overrides: {
    body?: unknown;
    params?: Record<string, string>;
    query?: Record<string, string>;
    fields?: Record<string, string>;
  } = {},
): Sent {
  const key = routeKey(route);
  const params = { ...paramsFor(key, w), ...overrides.params };
  const signed = w.callers[caller];
  const headers: Record<string, string> = { ...(signed?.headers ?? {}) };
  let url = fillPath(route.url, params);
  const query = partSchema(route, 'querystring');
  if (query) {
    const sample =
      overrides.query ?? (sampleOf(query, worldPick(w)) as Record<string, unknown> | undefined);
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(sample ?? {})) {
      qs.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    }
    if ([...qs].length > 0) url += `?${qs}`;
  }
  const sent: Sent = { method: route.method, url, headers };
  const field = MULTIPART_FIELD[key];
  if (field) {
    const form = pngForm(field, overrides.fields);
    Object.assign(headers, form.headers);
    sent.payload = form.payload;
    return sent;
  }
  const bodySchema = partSchema(route, 'body');
  const body = overrides.body ?? (bodySchema ? sampleOf(bodySchema, worldPick(w)) : undefined);
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    sent.payload = JSON.stringify(body);
  }
  return sent;
}

export type Answer = {
  statusCode: number;
  headers: LightMyRequestResponse['headers'];
  body: string;
  raw: Buffer;
  /** The error code of an error body, if the body is one. */
  code: string | undefined;
};

/** How long an event stream is read before the call hangs up (it never ends by itself). */
const STREAM_READ_MS = 100;

/**
 * Sends a request and reads its answer; an event stream is read for a moment and then closed,
 * as a browser that goes away would.
 */
export async function send(t: TestApp, sent: Sent): Promise<Answer> {
  const res = await t.app.inject({
    method: sent.method as 'GET',
    url: sent.url,
    headers: sent.headers,
    payloadAsStream: true,
    ...(sent.payload === undefined ? {} : { payload: sent.payload }),
  });
  const stream = res.stream();
  const chunks: Buffer[] = [];
  const isEventStream = String(res.headers['content-type'] ?? '').startsWith('text/event-stream');
  await new Promise<void>((done, fail) => {
    const timer = isEventStream
      ? setTimeout(() => {
          stream.destroy();
          done();
        }, STREAM_READ_MS)
      : undefined;
    stream.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
    stream.on('end', () => {
      clearTimeout(timer);
      done();
    });
    stream.on('error', (e) => {
      clearTimeout(timer);
      fail(e);
    });
  });
  const raw = Buffer.concat(chunks);
  const body = raw.toString('utf8');
  return { statusCode: res.statusCode, headers: res.headers, body, raw, code: errorCodeOf(body) };
}

function errorCodeOf(body: string): string | undefined {
  if (!body.startsWith('{')) return undefined;
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}
