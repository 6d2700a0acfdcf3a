import { count } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_CODES } from '../../../shared/errors.js';
import type { Database } from '../../db/client.js';
import { AppError } from '../errors.js';
import {
  OWNER_A,
  openThingsDatabase,
  thingsResource as resource,
  things,
} from './filter.fixture.js';
import {
  compileFilter,
  compileSelection,
  compileWhere,
  type FieldSpec,
  type FieldType,
  type ParsedFilter,
  parseFilter,
  parseWhere,
  type WhereNode,
} from './index.js';

let database: Database;
beforeAll(async () => {
  database = await openThingsDatabase();
});
afterAll(async () => {
  await database.close();
});

/** Marks generated string values, to find them in SQL text if they ever leaked there. */
const MARK = 'zqx';

/** Runs `parse`; a rejection must be exactly one well-formed VALIDATION_FAILED issue. */
function accepted<T>(parse: () => T): T | undefined {
  try {
    return parse();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const app = error as AppError;
    expect(app.code).toBe('VALIDATION_FAILED');
    expect(app.details).toEqual([
      { code: expect.toBeOneOf([...FIELD_CODES]), path: expect.any(Array) },
    ]);
    return undefined;
  }
}

/** The SQL must carry no marked value and no `secret`; then it must run without error. */
async function expectRuns(query: { toSQL(): { sql: string; params: unknown[] } }) {
  const { sql: text, params } = query.toSQL();
  expect(text.toLowerCase()).not.toContain(MARK);
  expect(text.toLowerCase()).not.toContain('secret');
  const placeholders = new Set(text.match(/\$\d+/g) ?? []);
  expect(placeholders.size).toBe(params.length);
  await query;
}

async function runFilter(filter: ParsedFilter) {
  const { where, orderBy, limit, offset } = compileFilter(filter, resource);
  await expectRuns(
    database.db
      .select(compileSelection(resource, filter.fields))
      .from(things)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset),
  );
}

async function runWhere(where: WhereNode | undefined) {
  const compiled = compileWhere(where, resource);
  await expectRuns(database.db.select({ n: count() }).from(things).where(compiled));
}

const FIELDS = Object.keys(resource.fields);
const OPS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'between', 'inq', 'nin'];
const TEXT_OPS = ['like', 'nlike', 'ilike', 'nilike', 'regexp', 'exists'];

// --- Random, mostly ill-formed input -------------------------------------------------------

const fieldName = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...FIELDS) },
  { weight: 1, arbitrary: fc.constantFrom('secret', '__proto__', 'constructor', 'name.x', '') },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);
const operator = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...OPS, ...TEXT_OPS) },
  { weight: 1, arbitrary: fc.constantFrom('options', '$gt', 'in', 'and', 'toString') },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const metachars = fc
  .array(fc.constantFrom(...'ab0(){}[]*+?|^$.\\-,:=!<dwskp1/ i%_\'"é'.split(''), '😀'), {
    maxLength: 16,
  })
  .map((chars) => chars.join(''));
const text = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
  fc.string({ unit: 'binary', maxLength: 10 }),
  metachars,
  fc.constantFrom('', 'NaN', '1e400', '-0', ' 1', '0x10', '2024-01-03', '2024-02-30T25:00:00Z'),
  fc.constantFrom('9999-12-31T23:59:59-14:00', '0001-01-01T00:00:00+01:00', 'true', OWNER_A),
  fc.constantFrom('\u0000', '\uD800', 'a'.repeat(1001), '/x/gi', '/(a+)+/i'),
);
const scalar = fc.oneof(
  { weight: 3, arbitrary: text.map((t) => MARK + t) },
  { weight: 2, arbitrary: text },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.maxSafeNat()) },
  { weight: 1, arbitrary: fc.constantFrom(0, -0, 1e308, -1e308, 5e-324, 2 ** 63, 1e21, 1.5) },
  { weight: 1, arbitrary: fc.oneof(fc.boolean(), fc.constant(null), fc.uuid()) },
  { weight: 1, arbitrary: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()) },
);
const value = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 3 }), scalar, { maxKeys: 2 }) },
);
const fieldValue = fc.oneof(value, fc.dictionary(operator, value, { maxKeys: 3 }));

const { randomWhere } = fc.letrec<{ randomWhere: unknown }>((tie) => ({
  randomWhere: fc.oneof(
    { depthSize: 'small' },
    fc.dictionary(fieldName, fieldValue, { maxKeys: 3 }),
    fc.record({ and: fc.array(tie('randomWhere'), { maxLength: 3 }) }),
    fc.record({ or: fc.array(tie('randomWhere'), { maxLength: 3 }) }),
  ),
}));

// --- Well-typed input, so that most of it is accepted and really runs ----------------------

/** Regexps built from atoms, bracket expressions, groups and quantifiers (some refused). */
const { regexpPattern } = fc.letrec<{ regexpPattern: string }>((tie) => ({
  regexpPattern: fc
    .array(
      fc.tuple(
        fc.oneof(
          { depthSize: 'small' },
          fc.constantFrom('a', 'Z', '.', '\\d', '\\W', '\\.', '\\-', '\\/', '\\(', 'é', '😀'),
          fc.constantFrom(' ', '\\n', '^', '$', '|', '-', ',', ':', '!', '=', '\\', '}'),
          fc
            .tuple(
              fc.constantFrom('', '^'),
              fc.array(fc.constantFrom('a', 'z', '-', 'A-Z', '0-9', '\\d', '\\]', '^', '_'), {
                maxLength: 4,
              }),
            )
            .map(([negate, items]) => `[${negate}${items.join('')}]`),
          tie('regexpPattern').map((inner) => `(${inner})`),
          tie('regexpPattern').map((inner) => `(${inner}|a)`),
        ),
        fc.constantFrom('', '', '', '*', '+', '?', '*?', '{2}', '{1,3}', '{0,}', '{255}', '{3,2}'),
      ),
      { maxLength: 5 },
    )
    .map((pieces) => pieces.map(([atom, quantifier]) => atom + quantifier).join('')),
}));
const regexp = fc.oneof(
  regexpPattern,
  regexpPattern.map((p) => `/${p}/i`),
  metachars,
  metachars.map((p) => `/${p}/i`),
);
const goodText = fc
  .oneof(fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 8 }), metachars)
  .map((t) => MARK + t);
const typedValue: Record<FieldType, fc.Arbitrary<unknown>> = {
  string: goodText,
  stringArray: goodText,
  number: fc.oneof(
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(0, 2, 2 ** 53, 2 ** 63, 1e21, -1e308, 5e-324, '3', '-2.5e3', '.5'),
  ),
  boolean: fc.constantFrom(true, false, 'true', 'false'),
  date: fc.oneof(
    fc
      .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z') })
      .map((d) => d.toISOString()),
    fc.constantFrom('2024-01-05', '2024-01-05T02:00:00+03:00', '2024-01-05 10:00', '0001-01-01'),
  ),
  uuid: fc.oneof(fc.uuid(), fc.constant(OWNER_A)),
};
const TYPED_OPS: Record<FieldType, string[]> = {
  string: [...OPS, ...TEXT_OPS],
  number: [...OPS, 'exists'],
  date: [...OPS, 'exists'],
  uuid: [...OPS, 'exists'],
  boolean: ['eq', 'neq', 'inq', 'nin', 'exists'],
  stringArray: ['eq', 'neq', 'inq', 'nin', 'exists'],
};
const FILTERABLE = FIELDS.filter((f) => resource.fields[f]?.filterable !== false);
const condition = fc.constantFrom(...FILTERABLE).chain((field) => {
  const type = (resource.fields[field] as FieldSpec).type;
  const v = typedValue[type];
  const arg = (op: string): fc.Arbitrary<unknown> => {
    if (op === 'between') return fc.tuple(v, v);
    if (op === 'inq' || op === 'nin') return fc.array(v, { maxLength: 5 });
    if (op === 'regexp') return regexp;
    if (op.includes('like')) return fc.oneof(goodText, metachars);
    if (op === 'exists') return fc.boolean();
    return fc.oneof({ weight: 9, arbitrary: v }, { weight: 1, arbitrary: fc.constant(null) });
  };
  const ops = fc.uniqueArray(fc.constantFrom(...TYPED_OPS[type]), { minLength: 1, maxLength: 2 });
  return fc.oneof(
    { weight: 1, arbitrary: v.map((x) => ({ [field]: x })) },
    {
      weight: 3,
      arbitrary: ops
        .chain((names) => fc.tuple(...names.map((op) => arg(op).map((a) => [op, a] as const))))
        .map((entries) => ({ [field]: Object.fromEntries(entries) })),
    },
  );
});
/** A well-typed where, with now and then one corrupted piece. */
const { typedWhere } = fc.letrec<{ typedWhere: unknown }>((tie) => ({
  typedWhere: fc.oneof(
    { depthSize: 'small' },
    {
      weight: 4,
      arbitrary: fc.array(condition, { maxLength: 3 }).map((cs) => Object.assign({}, ...cs)),
    },
    { weight: 1, arbitrary: fc.record({ and: fc.array(tie('typedWhere'), { maxLength: 3 }) }) },
    { weight: 1, arbitrary: fc.record({ or: fc.array(tie('typedWhere'), { maxLength: 3 }) }) },
    { weight: 1, arbitrary: fc.dictionary(fieldName, fieldValue, { maxKeys: 1 }) },
  ),
}));
const where = fc.oneof({ weight: 3, arbitrary: typedWhere }, { weight: 1, arbitrary: randomWhere });

const SORTABLE = FIELDS.filter((f) => resource.fields[f]?.sortable ?? true);
const orderItem = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(fc.constantFrom(...SORTABLE), fc.constantFrom('', ' ASC', ' desc'))
      .map(([f, d]) => f + d),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fieldName, fc.constantFrom('', ' ASC', ' up')).map(([f, d]) => f + d),
  },
  { weight: 1, arbitrary: scalar },
);
/** Mostly valid (so most filters run), now and then wrong in one place. */
const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) =>
  fc.oneof({ weight: 9, arbitrary: good }, { weight: 1, arbitrary: bad });
const filter = fc.record(
  {
    where,
    order: mostly(fc.array(orderItem, { maxLength: 2 }), orderItem),
    fields: mostly(
      fc.oneof(
        fc.array(fc.constantFrom(...FIELDS), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom(...FIELDS), fc.boolean(), { maxKeys: 3 }),
      ),
      fc.oneof(
        fc.array(fieldName, { maxLength: 3 }),
        fc.dictionary(fieldName, fc.oneof(fc.boolean(), scalar), { maxKeys: 3 }),
      ),
    ),
    limit: mostly(fc.integer({ min: 0, max: 1000 }), fc.oneof(fc.integer(), scalar)),
    skip: mostly(fc.nat(50), fc.oneof(fc.integer(), scalar)),
    offset: mostly(fc.nat(30), scalar),
    include: fc.jsonValue({ maxDepth: 2 }),
  },
  { requiredKeys: ['where'] },
);

describe('filter properties', () => {
  it('any input is either VALIDATION_FAILED or runs without a database error', async () => {
    const input = fc.oneof(
      { weight: 4, arbitrary: filter },
      { weight: 4, arbitrary: filter.map((f) => JSON.stringify(f)) },
      { weight: 1, arbitrary: fc.tuple(filter, scalar).map(([f, x]) => ({ ...f, extraKey: x })) },
      { weight: 1, arbitrary: fc.jsonValue() },
      {
        weight: 1,
        arbitrary: fc.anything({ withDate: true, withNullPrototype: true, withMap: true }),
      },
      { weight: 1, arbitrary: fc.string() },
    );
    let withWhere = 0;
    await fc.assert(
      fc.asyncProperty(input, async (raw) => {
        const parsed = accepted(() => parseFilter(raw, resource));
        if (parsed?.where) withWhere += 1;
        if (parsed) await runFilter(parsed);
      }),
      { numRuns: 300 },
    );
    expect(withWhere).toBeGreaterThan(25); // typically ~55: the property is not vacuous
  });

  it('a count where is either VALIDATION_FAILED or runs', async () => {
    const input = fc.oneof(
      { weight: 3, arbitrary: where },
      { weight: 3, arbitrary: where.map((w) => JSON.stringify(w)) },
      { weight: 1, arbitrary: fc.anything() },
    );
    let ran = 0;
    await fc.assert(
      fc.asyncProperty(input, async (raw) => {
        const parsed = accepted(() => parseWhere(raw, resource));
        if (parsed !== undefined) ran += 1;
        if (parsed !== undefined) await runWhere(parsed);
      }),
      { numRuns: 300 },
    );
    expect(ran).toBeGreaterThan(50); // typically ~110: the property is not vacuous
  });

  it('names outside the allow-list are always refused', () => {
    const { withSecret } = fc.letrec<{ withSecret: unknown }>((tie) => ({
      withSecret: fc.oneof(
        { depthSize: 'small' },
        fieldValue.map((v) => ({ secret: v })),
        fc.tuple(where, fieldValue).map(([w, v]) => ({ ...(w as object), secret: v })),
        fc.tuple(where, tie('withSecret')).map(([w, s]) => ({ and: [w, s] })),
        fc.tuple(where, tie('withSecret')).map(([w, s]) => ({ or: [s, w] })),
      ),
    }));
    fc.assert(
      fc.property(withSecret, fc.boolean(), (w, asText) => {
        expect(accepted(() => parseWhere(asText ? JSON.stringify(w) : w, resource))).toBe(
          undefined,
        );
        expect(accepted(() => parseFilter({ where: w }, resource))).toBe(undefined);
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.array(fieldName, { maxLength: 3 }), fc.nat(3), (names, at) => {
        const withName = [...names.slice(0, at), 'secret', ...names.slice(at)];
        expect(accepted(() => parseFilter({ fields: withName }, resource))).toBe(undefined);
        expect(accepted(() => parseFilter({ order: withName }, resource))).toBe(undefined);
      }),
      { numRuns: 100 },
    );
  });

  it('accepted regexps and like patterns never make PostgreSQL fail', async () => {
    let acceptedCount = 0;
    await fc.assert(
      fc.asyncProperty(regexp, fc.constantFrom('regexp', 'like', 'nilike'), async (p, op) => {
        const parsed = accepted(() => parseWhere({ name: { [op]: p } }, resource));
        if (parsed === undefined) return;
        acceptedCount += 1;
        await runWhere(parsed);
      }),
      { numRuns: 500 },
    );
    expect(acceptedCount).toBeGreaterThan(100);
  });
});
