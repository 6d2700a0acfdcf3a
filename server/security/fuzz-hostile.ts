// What the fuzzer sends instead of a valid value: hostile texts, numbers, JSON, ids, bodies,
// content types and multipart framings.

import { multipartForm, onePixelPng } from '../test/forms.js';
import type { Random } from './fuzz-random.js';

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

export const HOSTILE_NUMBERS: readonly number[] = [
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
export function hostileValue(rng: Random): unknown {
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
export const HOSTILE_JSON_TEXTS: readonly string[] = [
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
export const HOSTILE_IDS: readonly string[] = [
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
export const MALFORMED_JSON: readonly (string | Buffer)[] = [
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

export const WRONG_CONTENT_TYPES: readonly string[] = [
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
export function hostileMultipart(rng: Random, field: string): { payload: Buffer; type: string } {
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
