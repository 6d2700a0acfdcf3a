import type { RegisteredRoute } from '../app.js';
import { multipartForm, onePixelPng } from '../test/forms.js';
import { type JsonSchema, resolve, sampleOf } from './json-sample.js';
import { partSchema, routeKey, type Sent } from './route-calls.js';

// The fuzzer's cases, made from the OpenAPI description alone (GET /api/docs/json, which
// @fastify/swagger builds from the routes' schemas), so a route added later is fuzzed without
// anyone writing a case for it. Each case starts from a request that passes the operation's
// schemas and breaks one thing: a value of the wrong type, a hostile text (huge, NUL, lone
// surrogate, direction override…), the body's shape, the JSON itself, the content type, the
// multipart framing, a query parameter, a path id or a header. Cases come from a seeded
// generator: a seed, an operation and a case number always make the same request.

/** One operation of the API: what the fuzzer knows about a route. */
export type Operation = {
  /** `METHOD /path/{param}`, as the access rules spell it. */
  key: string;
  method: string;
  /** Path parameters' names, in order. */
  pathParams: string[];
  query: { name: string; schema: JsonSchema; required: boolean }[];
  /** The JSON body's schema, when the operation takes one. */
  body?: JsonSchema;
  /** Where `$ref`s of the schemas point (the description's components). */
  root: JsonSchema;
};

type OpenApiParameter = { in: string; name: string; required?: boolean; schema?: JsonSchema };
type OpenApiOperation = {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};
export type OpenApiDocument = {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/**
 * The operations of the OpenAPI description, then every registered route the description
 * leaves out (hidden routes, whose parts are read from their own schemas) but HEAD, which
 * answers as its GET.
 */
export function operationsOf(
  doc: OpenApiDocument,
  routeTable: readonly RegisteredRoute[],
): Operation[] {
  const root: JsonSchema = { $defs: doc.components?.schemas ?? {} };
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = op.parameters ?? [];
      ops.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? ''),
        query: params
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: p.schema ?? {}, required: p.required === true })),
        body: op.requestBody?.content?.['application/json']?.schema,
        root,
      });
    }
  }
  const described = new Set(ops.map((o) => o.key));
  for (const route of routeTable) {
    const key = routeKey(route);
    if (route.method === 'HEAD' || described.has(key)) continue;
    described.add(key);
    const query = partSchema(route, 'querystring');
    const required = new Set(query?.required ?? []);
    ops.push({
      key,
      method: route.method,
      pathParams: [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1] ?? ''),
      query: Object.entries(query?.properties ?? {}).map(([name, schema]) => ({
        name,
        schema,
        required: required.has(name),
      })),
      body: partSchema(route, 'body'),
      root: {},
    });
  }
  return ops;
}

/** A small, fast, seeded generator (mulberry32): the same seed gives the same cases. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T,
  };
}
export type Random = ReturnType<typeof seededRandom>;

/** A number from a text, for seeding each operation's cases by its key. */
export function hashOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Texts that have broken servers: sizes, NUL, surrogates, direction marks, look-alikes. */
export const HOSTILE_TEXTS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\ud83d',
  'invoice\u202efdp.exe',
  '\u2066\u2067\u2068\u2069',
  '\u200b\u200d\ufeff',
  '\u0007\u001b[31m\r\n\t',
  'ș'.normalize('NFD').repeat(50),
  '😀'.repeat(300),
  'a'.repeat(10_000),
  'Z'.repeat(200_000),
  '%00%ZZ%ED%A0%80',
  '../../../../etc/passwd',
  '\\\\server\\share',
  "' OR '1'='1",
  '"; --',
  '<script>alert(1)</script>',
  `{{7*7}}\${7*7}`,
  'null',
  'NaN',
  '-0',
  '1e309',
  '0x1F',
  '2026-13-45T99:99:99Z',
  '0190a000-0000-7000-8000-0000000000ff',
  'nimeni@',
  `${'a'.repeat(300)}@example.ro`,
  'proba@example.ro\r\nBcc: x@example.ro',
  '$argon2id$v=19$m=1,t=1,p=1$x$y',
  '%s%s%s%n',
  '\u0130\u0131\u017f\u212a',
  '\ufffd\ufffe\uffff',
  'javascript:alert(1)',
  'data:text/html,<b>x</b>',
];

const HOSTILE_NUMBERS: readonly number[] = [
  0,
  -1,
  -0,
  0.5,
  1e-320,
  2 ** 31,
  2 ** 53 + 2,
  -(2 ** 63),
  1e308,
  -1e308,
  Number.MAX_SAFE_INTEGER,
];

/** A JSON value of another kind than usual, sometimes nested absurdly or very large. */
function hostileValue(rng: Random): unknown {
  switch (rng.int(10)) {
    case 0:
      return rng.pick(HOSTILE_NUMBERS);
    case 1:
      return rng.pick([true, false, null]);
    case 2:
      return [];
    case 3:
      return {};
    case 4:
      return [rng.pick(HOSTILE_TEXTS), rng.pick(HOSTILE_NUMBERS), null, {}];
    case 5:
      return nested(rng.pick([40, 200, 2000]));
    case 6:
      return Array.from({ length: rng.pick([1000, 20_000]) }, (_, i) => i);
    case 7:
      return JSON.parse('{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}');
    case 8:
      return Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]));
    default:
      return rng.pick(HOSTILE_TEXTS);
  }
}

function nested(depth: number): unknown {
  let v: unknown = 'fund';
  for (let i = 0; i < depth; i += 1) v = i % 2 ? [v] : { a: v };
  return v;
}

/** JSON texts sent as a query parameter that holds JSON (filters) or any other string. */
const HOSTILE_JSON_TEXTS: readonly string[] = [
  '{',
  '[]',
  '"x"',
  '{"where":{"email":{"regexp":"(a+)+$"}}}',
  '{"where":{"givenName":{"ilike":"%\\u0000%"}}}',
  '{"where":{"givenName":{"ilike":"%\\ud800%"}}}',
  '{"where":{"passwordHash":{"neq":null}}}',
  '{"where":{"and":[[]]},"limit":-1,"skip":-5}',
  '{"where":{"or":{}}}',
  '{"where":{"familyName":{"inq":[1,{},null]}}}',
  '{"where":{"createdAt":{"between":["a","b"]}}}',
  '{"where":{"grade":{"gt":"x"}}}',
  '{"where":{"grade":1e400}}',
  '{"limit":1e9,"skip":1e300}',
  '{"order":"email; DROP TABLE users"}',
  '{"order":["familyName DESC","x ASC","givenName SIDEWAYS"]}',
  '{"fields":{"passwordHash":true},"include":["everything"]}',
  `{"where":${JSON.stringify(nested(300))}}`,
  '{"where":{"__proto__":{"x":1}}}',
  '{"where":{"examAdmin":"not-a-uuid"}}',
  '{"where":{"id":"\\u0000"}}',
  'null',
  '1',
];

/** Path ids that are not what the route expects. */
const HOSTILE_IDS: readonly string[] = [
  'x',
  '0',
  '-1',
  'null',
  'undefined',
  '0190a000-0000-7000-8000-0000000000ff',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  '0190A000-0000-7000-8000-00000000000G',
  '0190a000000070008000000000000001',
  '%00',
  '%ED%A0%80',
  '%E2%80%AE',
  '%F0%9F%98%80',
  '..%2F..%2Fetc%2Fpasswd',
  'a%2Fb',
  '%',
  '%ZZ',
  'a'.repeat(5000),
  'proba%40example.ro',
  '%20',
  '1e309',
  "'%3B--",
];

/** Bodies that are not JSON, sent as JSON. */
const MALFORMED_JSON: readonly (string | Buffer)[] = [
  '{',
  '{"a":',
  '{"a":1}}',
  '[',
  'nul',
  "{'a':1}",
  '{"a":1,}',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":undefined}',
  '\u0000',
  '\ufeff{}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"a":"\\uZZZZ"}',
  '"just a string"',
  '12',
  'true',
  '[['.repeat(50_000),
  '{"a":'.repeat(20_000),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
  Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
  '',
];

const WRONG_CONTENT_TYPES: readonly string[] = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/vnd.api+json',
  'application/merge-patch+json',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/mixed; boundary=x',
  'image/png',
  '*/*',
  ';;;',
  'application/json\u00ff',
];

/** Bodies that claim to be multipart and are not, or are hostile ones. */
function hostileMultipart(rng: Random, field: string): { payload: Buffer; type: string } {
  const boundary = 'fuzzboundary';
  const type = `multipart/form-data; boundary=${boundary}`;
  const part = (headers: string, body: string | Buffer) =>
    Buffer.concat([Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`), Buffer.from(body)]);
  const end = Buffer.from(`\r\n--${boundary}--\r\n`);
  const png = onePixelPng();
  switch (rng.int(12)) {
    case 0:
      return { payload: Buffer.from('not multipart at all'), type };
    case 1:
      // Cut off in the middle of a part.
      return { payload: part(`Content-Disposition: form-data; name="${field}"`, 'abc'), type };
    case 2:
      return { payload: Buffer.from(`--${boundary}\r\n\r\n\r\n--${boundary}--`), type };
    case 3:
      return {
        payload: Buffer.concat([part('Content-Disposition: garbage', 'x'), end]),
        type,
      };
    case 4:
      return {
        payload: Buffer.concat([part('X-Nothing: 1', 'x'), end]),
        type: 'multipart/form-data; boundary=another',
      };
    case 5: {
      const name = rng.pick([
        '\u0000',
        '\ud800',
        'a\u202eexe.png',
        '../../x.png',
        'x'.repeat(5000),
      ]);
      const encoded = Buffer.from(name, 'utf8').toString('latin1');
      return {
        payload: Buffer.concat([
          part(
            `Content-Disposition: form-data; name="${field}"; filename="${encoded}"\r\nContent-Type: image/png`,
            png,
          ),
          end,
        ]),
        type,
      };
    }
    case 6:
      return {
        payload: Buffer.concat([
          part(
            `Content-Disposition: form-data; name="${field}"; filename*=UTF-8''%ED%A0%80.png\r\nContent-Type: image/png`,
            png,
          ),
          end,
        ]),
        type,
      };
    case 7: {
      const many = Array.from({ length: 60 }, (_, i) =>
        part(
          `Content-Disposition: form-data; name="${field}${i % 2 ? '' : i}"; filename="p${i}.png"\r\nContent-Type: image/png`,
          png,
        ),
      );
      return { payload: Buffer.concat([...many, end]), type };
    }
    case 8:
      return {
        payload: Buffer.concat([
          part(`Content-Disposition: form-data; name="${field}"; filename="p.png"`, ''),
          end,
        ]),
        type,
      };
    case 9: {
      const form = multipartForm([
        { name: rng.pick(['Grade', 'Discipline', 'x']), value: rng.pick(HOSTILE_TEXTS) },
        { name: field, filename: 'pagina.png', type: 'image/png', value: png },
      ]);
      return { payload: form.payload, type: String(form.headers['content-type']) };
    }
    case 10: {
      const form = multipartForm([
        {
          name: field,
          filename: 'nu-e-imagine.png',
          type: 'image/png',
          value: Buffer.from(rng.pick(['%PDF-1.4 broken', 'PK\u0003\u0004zip', '<svg onload=x>'])),
        },
      ]);
      return { payload: form.payload, type: String(form.headers['content-type']) };
    }
    default:
      return {
        payload: Buffer.concat([
          part(`Content-Disposition: form-data; name="${field}"`, 'x'.repeat(300_000)),
          end,
        ]),
        type,
      };
  }
}

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
