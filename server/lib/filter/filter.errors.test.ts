import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { thingsResource as resource } from './filter.fixture.js';
import { parseFilter, parseWhere } from './index.js';

function expectInvalid(run: () => unknown, path: (string | number)[], code = 'invalid') {
  let error: unknown;
  try {
    run();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('VALIDATION_FAILED');
  expect((error as AppError).details).toEqual([{ code, path }]);
}

describe('bad input is VALIDATION_FAILED with a path', () => {
  const where = (w: unknown) => () => parseFilter({ where: w }, resource);

  it('filter shape', () => {
    expectInvalid(() => parseFilter('{not json', resource), ['filter']);
    expectInvalid(() => parseFilter('[1]', resource), ['filter']);
    expectInvalid(() => parseFilter(42, resource), ['filter']);
    expectInvalid(() => parseFilter({ foo: 1 }, resource), ['foo']);
    expectInvalid(() => parseFilter({ type: 1 }, resource), ['type']);
    expectInvalid(() => parseWhere('{"name":', resource), ['where']);
    expectInvalid(() => parseWhere('[]', resource), ['where']);
    expectInvalid(where('{"name":"Ana"}'), ['where']);
  });

  it('fields of the where', () => {
    expectInvalid(where({ secret: 'x' }), ['where', 'secret']);
    expectInvalid(where({ note: 'x' }), ['where', 'note']);
    expectInvalid(where({ __proto__: 'x', toString: 1 }), ['where', 'toString']);
    expectInvalid(() => parseWhere('{"__proto__":{"eq":1}}', resource), ['where', '__proto__']);
    expectInvalid(where({ or: [{ name: 'a' }, { and: [{ rank: 1 }, { 'name.first': 1 }] }] }), [
      'where',
      'or',
      1,
      'and',
      1,
      'name.first',
    ]);
    expectInvalid(where({ and: { name: 'a' } }), ['where', 'and']);
    expectInvalid(where({ or: ['a'] }), ['where', 'or', 0]);
  });

  it('operators', () => {
    expectInvalid(where({ name: { foo: 1 } }), ['where', 'name', 'foo']);
    expectInvalid(where({ name: { options: 'i' } }), ['where', 'name', 'options']);
    expectInvalid(where({ rank: { like: '1%' } }), ['where', 'rank', 'like']);
    expectInvalid(where({ active: { gt: true } }), ['where', 'active', 'gt']);
    expectInvalid(where({ tags: { like: 'a' } }), ['where', 'tags', 'like']);
    expectInvalid(where({ name: {} }), ['where', 'name']);
    expectInvalid(where({ name: ['a'] }), ['where', 'name']);
    expectInvalid(where({ rank: /1/ }), ['where', 'rank']);
  });

  it('values', () => {
    expectInvalid(where({ rank: 'abc' }), ['where', 'rank'], 'not_number');
    expectInvalid(
      where({ rank: { gt: Number.POSITIVE_INFINITY } }),
      ['where', 'rank', 'gt'],
      'not_number',
    );
    expectInvalid(where({ rank: { gt: null } }), ['where', 'rank', 'gt'], 'not_number');
    expectInvalid(where({ active: 'yes' }), ['where', 'active']);
    expectInvalid(where({ createdAt: '2024-02-30' }), ['where', 'createdAt'], 'invalid_date');
    expectInvalid(where({ createdAt: '0000-01-01' }), ['where', 'createdAt'], 'invalid_date');
    expectInvalid(
      where({ createdAt: { lt: 'yesterday' } }),
      ['where', 'createdAt', 'lt'],
      'invalid_date',
    );
    expectInvalid(where({ _id: 'not-a-uuid' }), ['where', '_id']);
    expectInvalid(where({ name: 5 }), ['where', 'name']);
    expectInvalid(where({ name: 'a'.repeat(1001) }), ['where', 'name'], 'too_long');
    expectInvalid(where({ name: 'a\u0000b' }), ['where', 'name'], 'invalid_characters');
    expectInvalid(where({ name: '\uD800' }), ['where', 'name'], 'invalid_characters');
    expectInvalid(where({ rank: { between: [1] } }), ['where', 'rank', 'between']);
    expectInvalid(
      where({ rank: { between: [1, 'x'] } }),
      ['where', 'rank', 'between', 1],
      'not_number',
    );
    expectInvalid(where({ rank: { inq: 1 } }), ['where', 'rank', 'inq']);
    expectInvalid(where({ rank: { inq: [1, 2, 'x'] } }), ['where', 'rank', 'inq', 2], 'not_number');
    expectInvalid(
      where({ rank: { inq: Array(1001).fill(1) } }),
      ['where', 'rank', 'inq'],
      'too_long',
    );
    expectInvalid(where({ tags: { inq: [null] } }), ['where', 'tags', 'inq', 0]);
    expectInvalid(where({ score: { exists: 'maybe' } }), ['where', 'score', 'exists']);
    expectInvalid(where({ name: { like: 'abc\\' } }), ['where', 'name', 'like']);
  });

  it('regexps PostgreSQL would refuse or that could run away', () => {
    const bad = [
      '(a+)+',
      '((a)*b)*',
      '(a|b*)+',
      '\\1',
      '(a)\\1',
      '(?=a)',
      '(?i)a',
      'a{256}',
      'a{',
      'a}',
      ']',
      '[[:alpha:]]',
      '[]a]',
      '[a-b-c]',
      '[\\d-z]',
      '\\q',
      '\\b',
      '\\p{L}',
      '*a',
      'a**',
      '/a/g',
      '/a/m',
      '',
      'a'.repeat(201),
    ];
    for (const pattern of bad) {
      expectInvalid(where({ name: { regexp: pattern } }), ['where', 'name', 'regexp']);
    }
    expectInvalid(where({ name: { regexp: 5 } }), ['where', 'name', 'regexp']);
  });

  it('nesting deeper than 8', () => {
    let deep: Record<string, unknown> = { rank: 1 };
    for (let i = 0; i < 8; i++) deep = { and: [deep] };
    expect(parseWhere(deep, resource)).toBeDefined();
    const path = ['where', 'or', 0, ...Array(7).fill(['and', 0]).flat(), 'and'];
    expectInvalid(where({ or: [deep] }), path);
  });

  it('order, limit, skip and fields', () => {
    expectInvalid(() => parseFilter({ order: 'secret ASC' }, resource), ['order']);
    expectInvalid(() => parseFilter({ order: 'name UP' }, resource), ['order']);
    expectInvalid(() => parseFilter({ order: ['rank', 'note DESC'] }, resource), ['order', 1]);
    expectInvalid(() => parseFilter({ order: ['rank', 5] }, resource), ['order', 1]);
    expectInvalid(() => parseFilter({ order: 'tags ASC' }, resource), ['order']);
    expectInvalid(() => parseFilter({ order: { name: 1 } }, resource), ['order']);
    expectInvalid(() => parseFilter({ limit: -1 }, resource), ['limit']);
    expectInvalid(() => parseFilter({ limit: 1001 }, resource), ['limit']);
    expectInvalid(() => parseFilter({ limit: 11 }, { ...resource, maxLimit: 10 }), ['limit']);
    expectInvalid(() => parseFilter({ limit: 1.5 }, resource), ['limit'], 'not_number');
    expectInvalid(() => parseFilter({ limit: 'ten' }, resource), ['limit'], 'not_number');
    expectInvalid(() => parseFilter({ skip: -3 }, resource), ['skip']);
    expectInvalid(() => parseFilter({ offset: 1e12 }, resource), ['offset']);
    expectInvalid(() => parseFilter({ fields: ['name', 'secret'] }, resource), ['fields', 1]);
    expectInvalid(() => parseFilter({ fields: { secret: true } }, resource), ['fields', 'secret']);
    expectInvalid(() => parseFilter({ fields: { name: 'yes' } }, resource), ['fields', 'name']);
    expectInvalid(() => parseFilter({ fields: 'name' }, resource), ['fields']);
  });
});
