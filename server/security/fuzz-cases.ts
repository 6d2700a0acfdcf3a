// The fuzzer's cases, made from the OpenAPI description alone (GET /api/docs/json, which
// @fastify/swagger builds from the routes' schemas), so a route added later is fuzzed without
// anyone writing a case for it. Each case starts from a request that passes the operation's
// schemas and breaks one thing: a value of the wrong type, a hostile text (huge, NUL, lone
// surrogate, direction override…), the body's shape, the JSON itself, the content type, the
// multipart framing, a query parameter, a path id or a header. Cases come from a seeded
// generator: a seed, an operation and a case number always make the same request.

import { multipartForm, onePixelPng } from '../test/forms.js';
import {
  HOSTILE_IDS,
  HOSTILE_JSON_TEXTS,
  HOSTILE_NUMBERS,
  HOSTILE_TEXTS,
  hostileMultipart,
  hostileValue,
  MALFORMED_JSON,
  WRONG_CONTENT_TYPES,
} from './fuzz-hostile.js';
import type { Operation } from './fuzz-operations.js';
import type { Random } from './fuzz-random.js';
import { resolve, sampleOf } from './json-sample.js';
import type { Sent } from './route-calls.js';

/** The case's kinds; a CI-sized run takes one of each, a long one draws them in turn. */
export const CASE_KINDS = [
  'body-type',
  'body-text',
  'body-shape',
  'malformed-json',
  'content-type',
  'multipart',
  'query',
  'query-json',
  'path',
  'headers',
  'anonymous',
] as const;
export type CaseKind = (typeof CASE_KINDS)[number];

export type FuzzCase = Sent & { kind: CaseKind; what: string; anonymous: boolean };

/** Everything a case is built from: the valid request and what the operation declares. */
export type Base = {
  op: Operation;
  sent: Sent;
  /** The JSON body of `sent`, if it has one. */
  body: unknown;
  /** The path parameters' values of `sent`. */
  params: Record<string, string>;
  /** The query of `sent`. */
  query: Record<string, string>;
  /** The part name a multipart route reads its files from, if it reads any. */
  multipartField?: string;
  /** The route's URL pattern with `{name}` for each parameter. */
  path: string;
};

const hasBody = (method: string) => !['GET', 'HEAD'].includes(method);

/** The case number `n` of an operation: one mutation of its valid request. */
export function makeCase(base: Base, kind: CaseKind, rng: Random): FuzzCase {
  const { op } = base;
  const headers = { ...base.sent.headers };
  let params = { ...base.params };
  let query: [string, string][] = Object.entries(base.query);
  let payload = base.sent.payload;
  let what: string = kind;
  let anonymous = false;
  const jsonBody = (value: unknown) => {
    headers['content-type'] = 'application/json';
    for (const k of Object.keys(headers))
      if (k.toLowerCase() === 'content-length') delete headers[k];
    payload = JSON.stringify(value);
  };
  // A body kind on an operation without a body changes its query or path instead.
  let effective: CaseKind = kind;
  if (!hasBody(op.method) && ['body-type', 'body-text', 'body-shape'].includes(kind)) {
    effective = op.query.length > 0 ? 'query' : 'path';
  }
  if (!hasBody(op.method) && ['malformed-json', 'content-type', 'multipart'].includes(kind)) {
    effective = rng.pick(['query-json', 'headers', 'path'] as const);
  }
  switch (effective) {
    case 'body-type':
    case 'body-text': {
      const value = effective === 'body-type' ? hostileValue(rng) : rng.pick(HOSTILE_TEXTS);
      const body = base.body === undefined ? {} : structuredClone(base.body);
      const { result, at } = replaceSomewhere(body, value, rng, effective === 'body-text');
      what = `${effective} at ${at}: ${preview(value)}`;
      if (base.multipartField) {
        const form = multipartForm([
          { name: at || 'x', value: typeof value === 'string' ? value : JSON.stringify(value) },
          { name: base.multipartField, filename: 'p.png', type: 'image/png', value: onePixelPng() },
        ]);
        Object.assign(headers, form.headers);
        payload = form.payload;
      } else jsonBody(result);
      break;
    }
    case 'body-shape': {
      const body = base.body === undefined ? {} : structuredClone(base.body);
      const shaped = reshape(body, op, rng);
      what = `body-shape: ${shaped.what}`;
      jsonBody(shaped.value);
      break;
    }
    case 'malformed-json': {
      const text = rng.pick(MALFORMED_JSON);
      headers['content-type'] = rng.pick(['application/json', 'application/json; charset=utf-8']);
      payload = text;
      what = `malformed JSON ${preview(text)}`;
      break;
    }
    case 'content-type': {
      const type = rng.pick(WRONG_CONTENT_TYPES);
      headers['content-type'] = type;
      if (payload === undefined || rng.int(3) === 0) payload = rng.pick(['a=1&b=2', '<x/>', '']);
      what = `content type ${preview(type)}`;
      break;
    }
    case 'multipart': {
      const form = hostileMultipart(rng, base.multipartField ?? 'file');
      headers['content-type'] = form.type;
      payload = form.payload;
      what = `multipart ${preview(form.payload.subarray(0, 120).toString('latin1'))}`;
      break;
    }
    case 'query': {
      const declared = op.query.map((q) => q.name);
      const name =
        declared.length > 0 && rng.int(4) > 0
          ? rng.pick(declared)
          : rng.pick(['x', '__proto__', 'filter[where]', '']);
      const value =
        rng.int(3) === 0
          ? String(rng.pick(HOSTILE_NUMBERS))
          : rng.int(5) === 0
            ? `\u0001${rng.pick(HOSTILE_IDS)}`
            : rng.pick(HOSTILE_TEXTS);
      query = query.filter(([k]) => k !== name);
      query.push([name, value]);
      if (rng.int(4) === 0) query.push([name, rng.pick(HOSTILE_TEXTS)]);
      what = `query ${name}=${preview(value)}`;
      break;
    }
    case 'query-json': {
      const names = op.query.map((q) => q.name);
      const name = names.length > 0 ? rng.pick(names) : rng.pick(['filter', 'where']);
      const value = rng.pick(HOSTILE_JSON_TEXTS);
      query = query.filter(([k]) => k !== name);
      query.push([name, value]);
      what = `query ${name}=${preview(value)}`;
      break;
    }
    case 'path': {
      if (op.pathParams.length === 0) {
        // No id to break: a malformed escape or a NUL after the path instead.
        const tail = rng.pick(['%00', '%ZZ', '%ED%A0%80', '/..%2F', '/%2e%2e/x', '?%']);
        what = `path tail ${tail}`;
        return finish(base, headers, params, query, payload, kind, what, anonymous, tail);
      }
      const name = rng.pick(op.pathParams);
      const value = rng.pick(HOSTILE_IDS);
      params = { ...params, [name]: `\u0001${value}` };
      what = `path ${name}=${preview(value)}`;
      break;
    }
    case 'headers': {
      const choice = rng.int(7);
      if (choice === 0)
        headers.authorization = rng.pick([
          'Bearer',
          'Bearer x',
          'Basic Og==',
          `Bearer ${'a'.repeat(5000)}`,
          'Bearer ey.ey.ey',
        ]);
      else if (choice === 1) headers.userid = rng.pick(HOSTILE_IDS);
      else if (choice === 2)
        headers['accept-language'] = rng.pick(['xx', '*;q=abc', 'ro'.repeat(3000)]);
      else if (choice === 3) headers.accept = rng.pick(['application/xml', 'text/csv', '*/*;q=x']);
      else if (choice === 4)
        headers['x-forwarded-for'] = rng.pick(['999.1.1.1', 'x, y, z', '::ffff:1.2.3.4']);
      else if (choice === 5) headers['podium-device'] = rng.pick(HOSTILE_IDS);
      else headers['content-encoding'] = rng.pick(['gzip', 'br', 'deflate', 'x']);
      what = `header ${preview(JSON.stringify(headers).slice(-100))}`;
      break;
    }
    case 'anonymous': {
      anonymous = true;
      delete headers.authorization;
      delete headers.userid;
      const other = rng.pick(CASE_KINDS.filter((k) => k !== 'anonymous'));
      const inner = makeCase({ ...base, sent: { ...base.sent, headers } }, other, rng);
      return { ...inner, kind, anonymous, what: `anonymous, ${inner.what}` };
    }
  }
  return finish(base, headers, params, query, payload, kind, what, anonymous);
}

function finish(
  base: Base,
  headers: Record<string, string>,
  params: Record<string, string>,
  query: [string, string][],
  payload: string | Buffer | undefined,
  kind: CaseKind,
  what: string,
  anonymous: boolean,
  tail = '',
): FuzzCase {
  // A value that starts with \u0001 is written raw: its escapes are the case.
  const url = base.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name] ?? 'x';
    return value.startsWith('\u0001') ? value.slice(1) : encodeURIComponent(value);
  });
  const qs = query.map(([k, v]) => `${encoded(k)}=${encoded(v)}`).join('&');
  return {
    method: base.sent.method,
    url: `${url}${tail}${qs ? `?${qs}` : ''}`,
    headers,
    ...(payload === undefined ? {} : { payload }),
    kind,
    what,
    anonymous,
  };
}

/** A query text percent-encoded; one that starts with \u0001 is sent raw (its escapes are the case). */
function encoded(text: string): string {
  if (text.startsWith('\u0001')) return text.slice(1);
  try {
    return encodeURIComponent(text);
  } catch {
    // A lone surrogate has no UTF-8: its three bytes as CESU-8 write it anyway.
    return [...text]
      .map((ch) => {
        const code = ch.charCodeAt(0);
        if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) {
          const bytes = [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
          return bytes.map((b) => `%${b.toString(16).toUpperCase()}`).join('');
        }
        return encodeURIComponent(ch);
      })
      .join('');
  }
}

/** Replaces one node of a JSON value (a leaf when `leaf`); the root when there is none. */
function replaceSomewhere(
  value: unknown,
  replacement: unknown,
  rng: Random,
  leaf: boolean,
): { result: unknown; at: string } {
  const spots: { parent: Record<string, unknown> | unknown[]; key: string | number; at: string }[] =
    [];
  const walk = (v: unknown, at: string) => {
    if (v === null || typeof v !== 'object') return;
    for (const [k, inner] of Object.entries(v)) {
      const key = Array.isArray(v) ? Number(k) : k;
      const isLeaf = inner === null || typeof inner !== 'object';
      if (!leaf || isLeaf)
        spots.push({ parent: v as Record<string, unknown>, key, at: `${at}/${k}` });
      walk(inner, `${at}/${k}`);
    }
  };
  walk(value, '');
  if (spots.length === 0 || (!leaf && rng.int(6) === 0)) return { result: replacement, at: '' };
  const spot = rng.pick(spots);
  (spot.parent as Record<string | number, unknown>)[spot.key] = replacement;
  return { result: value, at: spot.at };
}

/** The body with its shape broken: a required field gone, fields added, wrapped, emptied. */
function reshape(body: unknown, op: Operation, rng: Random): { value: unknown; what: string } {
  const schema = op.body ? resolve(op.body, op.root) : {};
  const object =
    body && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};
  switch (rng.int(6)) {
    case 0: {
      const required = schema.required ?? Object.keys(object);
      const gone = required.length > 0 ? rng.pick(required) : 'x';
      delete object[gone];
      return { value: object, what: `without ${gone}` };
    }
    case 1: {
      // Every declared field, including optional ones, with a sampled or hostile value.
      for (const [k, s] of Object.entries(schema.properties ?? {})) {
        object[k] = rng.int(2) ? sampleOf(s, () => undefined, k, op.root) : hostileValue(rng);
      }
      return { value: object, what: 'every field' };
    }
    case 2:
      return {
        value: { ...object, unexpected: rng.pick(HOSTILE_TEXTS), '\u202e': 1 },
        what: 'extra fields',
      };
    case 3:
      return { value: [object], what: 'wrapped in an array' };
    case 4:
      return { value: rng.pick([null, 0, '', 'text', true]), what: 'not an object' };
    default:
      return {
        value: Object.fromEntries(Object.keys(object).map((k) => [k, null])),
        what: 'all null',
      };
  }
}

/** A short, printable view of a value for a failure message. */
export function preview(value: unknown): string {
  const text =
    typeof value === 'string'
      ? value
      : Buffer.isBuffer(value)
        ? value.toString('latin1')
        : JSON.stringify(value);
  const shown = JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…(${text.length})` : text);
  return shown ?? String(value);
}
