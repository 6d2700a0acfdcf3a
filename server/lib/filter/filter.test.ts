import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.js';
import {
  OWNER_A,
  openThingsDatabase,
  thingsResource as resource,
  THINGS,
  type Thing,
  things,
} from './filter.fixture.js';
import {
  compileFilter,
  compileOrder,
  compileSelection,
  compileWhere,
  type ListResource,
  parseFilter,
  parseWhere,
  projectFields,
} from './index.js';

let database: Database;
beforeAll(async () => {
  database = await openThingsDatabase();
});
afterAll(async () => {
  await database.close();
});

/** Ids (in query order) of the rows a filter selects. */
async function select(filter: unknown, res: ListResource = resource): Promise<string[]> {
  const { where, orderBy, limit, offset } = compileFilter(parseFilter(filter, res), res);
  const rows = await database.db
    .select({ id: things.id })
    .from(things)
    .where(where)
    .orderBy(...orderBy)
    .limit(limit)
    .offset(offset);
  return rows.map((row) => row.id);
}

/** The where selects exactly the rows the predicate keeps. */
async function expectWhere(where: unknown, keep: (row: Thing) => boolean) {
  const got = await select({ where });
  const want = THINGS.filter(keep).map((row) => row.id);
  expect([...got].sort()).toEqual([...want].sort());
}

const byName =
  (...names: (string | null)[]) =>
  (row: Thing) =>
    names.includes(row.name);
const time = (row: Thing) => row.createdAt?.getTime();

describe('where operators', () => {
  it('equality, with type coercion and null', async () => {
    await expectWhere({ name: 'Ana' }, byName('Ana'));
    await expectWhere({ rank: 2 }, (r) => r.rank === 2);
    await expectWhere({ rank: '2' }, (r) => r.rank === 2);
    await expectWhere({ score: 4.5 }, (r) => r.score === 4.5);
    await expectWhere({ active: true }, (r) => r.active === true);
    await expectWhere({ active: 'false' }, (r) => r.active === false);
    await expectWhere({ createdAt: '2024-01-03' }, (r) => time(r) === Date.UTC(2024, 0, 3));
    await expectWhere({ _id: THINGS[4]?.id.toUpperCase() }, (r) => r.id === THINGS[4]?.id);
    await expectWhere({ ownerId: OWNER_A }, (r) => r.ownerId === OWNER_A);
    await expectWhere({ name: null }, (r) => r.name === null);
    await expectWhere({ name: { eq: null } }, (r) => r.name === null);
    await expectWhere({ name: 'nobody' }, () => false);
  });

  it('neq includes rows without a value', async () => {
    await expectWhere({ rank: { neq: 2 } }, (r) => r.rank !== 2);
    await expectWhere({ name: { neq: null } }, (r) => r.name !== null);
    await expectWhere({ active: { neq: true } }, (r) => r.active !== true);
  });

  it('comparisons and between on numbers and dates', async () => {
    await expectWhere({ rank: { gt: 2 } }, (r) => r.rank !== null && r.rank > 2);
    await expectWhere({ rank: { gte: 2 } }, (r) => r.rank !== null && r.rank >= 2);
    await expectWhere({ score: { lt: -1.5 } }, (r) => r.score !== null && r.score < -1.5);
    await expectWhere({ score: { lte: 0.25 } }, (r) => r.score !== null && r.score <= 0.25);
    await expectWhere({ score: { gt: 1e300 } }, () => false);
    await expectWhere(
      { rank: { between: [1, 3] } },
      (r) => r.rank !== null && r.rank >= 1 && r.rank <= 3,
    );
    // 02:00 at +03:00 is 23:00 UTC the day before.
    const cut = Date.UTC(2024, 0, 4, 23);
    await expectWhere(
      { createdAt: { gt: '2024-01-05T02:00:00+03:00' } },
      (r) => (time(r) ?? 0) > cut,
    );
    await expectWhere(
      { createdAt: { between: ['2024-01-02', '2024-01-04T00:00:00.000Z'] } },
      (r) => (time(r) ?? 0) >= Date.UTC(2024, 0, 2) && (time(r) ?? 0) <= Date.UTC(2024, 0, 4),
    );
    await expectWhere({ nameLength: { gte: 6 } }, (r) => (r.name?.length ?? 0) >= 6);
  });

  it('inq and nin', async () => {
    await expectWhere({ rank: { inq: [1, 2] } }, (r) => r.rank === 1 || r.rank === 2);
    await expectWhere({ rank: { inq: [] } }, () => false);
    await expectWhere({ rank: { nin: [1, 2] } }, (r) => r.rank !== 1 && r.rank !== 2);
    await expectWhere({ rank: { nin: [] } }, () => true);
    await expectWhere({ name: { inq: ['Zoe', 'zoe', 'x'] } }, byName('Zoe', 'zoe'));
    const ids = [THINGS[0]?.id, THINGS[19]?.id];
    await expectWhere({ _id: { inq: ids } }, (r) => ids.includes(r.id));
  });

  it('string arrays: eq is contains, inq is overlap', async () => {
    const has = (r: Thing, tag: string) => r.tags?.includes(tag) ?? false;
    await expectWhere({ tags: 'math' }, (r) => has(r, 'math'));
    await expectWhere({ tags: { neq: 'math' } }, (r) => !has(r, 'math'));
    await expectWhere({ tags: { inq: ['cs', 'art'] } }, (r) => has(r, 'cs'));
    await expectWhere({ tags: { nin: ['cs'] } }, (r) => !has(r, 'cs'));
    await expectWhere({ tags: null }, (r) => r.tags === null);
  });

  it('like family with LoopBack wildcards and escapes', async () => {
    await expectWhere({ name: { like: 'Ma%' } }, byName('Maria', 'Marius'));
    await expectWhere({ name: { like: '_oe' } }, byName('Zoe', 'zoe'));
    await expectWhere({ name: { like: '100\\%%' } }, byName('100% sigur'));
    await expectWhere({ name: { like: 'sub\\_%' } }, byName('sub_linie'));
    await expectWhere({ name: { like: '%\\\\%' } }, byName('bară\\oblică'));
    await expectWhere({ name: { ilike: 'an%' } }, byName('Ana', 'ana', 'Andrei'));
    await expectWhere({ name: { ilike: '%ȘTEF%' } }, byName('Ștefan'));
    await expectWhere({ name: { nlike: '%a%' } }, (r) => r.name === null || !r.name.includes('a'));
    await expectWhere({ name: { nilike: 'z%' } }, (r) => !/^z/i.test(r.name ?? ''));
  });

  it('regexp with and without the i flag', async () => {
    await expectWhere({ name: { regexp: '^Ma' } }, byName('Maria', 'Marius'));
    await expectWhere({ name: { regexp: '/^ma/i' } }, byName('Maria', 'Marius'));
    await expectWhere({ name: { regexp: '/^(ana|zoe)$/i' } }, byName('Ana', 'ana', 'Zoe', 'zoe'));
    await expectWhere({ name: { regexp: '\\d+%' } }, byName('100% sigur'));
    await expectWhere({ name: { regexp: 'r[a-i]{1,2}' } }, (r) => /r[a-i]{1,2}/.test(r.name ?? ''));
    await expectWhere({ name: /^Ă/ }, byName('Ămăr'));
  });

  it('exists, and, or and empty forms', async () => {
    await expectWhere({ score: { exists: true } }, (r) => r.score !== null);
    await expectWhere({ score: { exists: false } }, (r) => r.score === null);
    await expectWhere({}, () => true);
    await expectWhere({ and: [] }, () => true);
    await expectWhere({ or: [] }, () => false);
    await expectWhere({ or: [{}, { rank: 1 }] }, () => true);
    await expectWhere(
      { or: [{ rank: 1 }, { and: [{ active: true }, { score: { gt: 3 } }] }] },
      (r) => r.rank === 1 || (r.active === true && (r.score ?? 0) > 3),
    );
    await expectWhere(
      { rank: { gte: 1, lte: 3 }, active: false },
      (r) => r.rank !== null && r.rank >= 1 && r.rank <= 3 && r.active === false,
    );
  });
});

describe('order, paging and fields', () => {
  const rankDescThenId = [...THINGS]
    .sort((a, b) => {
      if (a.rank !== b.rank) {
        if (a.rank === null) return -1; // PostgreSQL: nulls first when descending
        if (b.rank === null) return 1;
        return b.rank - a.rank;
      }
      return a.id < b.id ? -1 : 1;
    })
    .map((row) => row.id);

  it('orders with the _id tiebreak', async () => {
    expect(await select({ order: 'rank DESC' })).toEqual(rankDescThenId);
    expect(await select({ order: ['rank desc'] })).toEqual(rankDescThenId);
    expect(await select({ order: 'rank DESC, _id ASC' })).toEqual(rankDescThenId);
    const byIdDesc = THINGS.map((row) => row.id).reverse();
    expect(await select({ order: '_id DESC' })).toEqual(byIdDesc);
    expect(compileOrder([{ field: '_id', dir: 'DESC' }], resource)).toHaveLength(1);
    expect(compileOrder([{ field: 'rank', dir: 'ASC' }], resource)).toHaveLength(2);
  });

  it('uses the default order, and parses order forms', () => {
    expect(parseFilter(undefined, resource).order).toEqual([{ field: 'name', dir: 'ASC' }]);
    expect(parseFilter({ order: 'score' }, resource).order).toEqual([
      { field: 'score', dir: 'ASC' },
    ]);
    expect(parseFilter({ order: ['rank DESC', 'rank ASC'] }, resource).order).toEqual([
      { field: 'rank', dir: 'DESC' },
    ]);
  });

  it('pages without overlap or gaps', async () => {
    const pages: string[] = [];
    for (let skip = 0; skip < 20; skip += 3) {
      pages.push(...(await select({ order: 'rank DESC', limit: 3, skip })));
    }
    expect(pages).toEqual(rankDescThenId);
    expect(await select({ order: 'rank DESC', limit: '5', offset: '2' })).toEqual(
      rankDescThenId.slice(2, 7),
    );
  });

  it('applies limits and their defaults', () => {
    expect(parseFilter(undefined, resource)).toMatchObject({ limit: 100, skip: 0 });
    expect(parseFilter('', resource, { defaultLimit: 10 }).limit).toBe(10);
    expect(parseFilter({ limit: 0 }, resource, { defaultLimit: 7 }).limit).toBe(7);
    expect(parseFilter({ limit: 1000 }, resource).limit).toBe(1000);
    const small = { ...resource, maxLimit: 10 };
    expect(parseFilter({}, small).limit).toBe(10);
  });

  it('projects fields', async () => {
    const asList = parseFilter({ fields: ['name', 'rank', 'name'] }, resource).fields;
    expect(asList).toEqual(['name', 'rank']);
    expect(parseFilter({ fields: { name: true, rank: false } }, resource).fields).toEqual(['name']);
    const excluded = parseFilter({ fields: { note: false, nameLength: false } }, resource).fields;
    expect(excluded).toEqual([
      '_id',
      'name',
      'rank',
      'score',
      'active',
      'createdAt',
      'ownerId',
      'tags',
    ]);
    expect(parseFilter({ fields: [] }, resource).fields).toBeUndefined();

    const filter = parseFilter(
      { fields: ['_id', 'nameLength'], where: { _id: THINGS[0]?.id } },
      resource,
    );
    const rows = await database.db
      .select(compileSelection(resource, filter.fields))
      .from(things)
      .where(compileWhere(filter.where, resource));
    expect(rows).toEqual([{ _id: THINGS[0]?.id, nameLength: 3 }]);
    const row = { _id: 'x', name: 'n', rank: 1 };
    expect(projectFields(row, ['name'])).toEqual({ name: 'n' });
    expect(projectFields(row, undefined)).toBe(row);
  });

  it('passes include and declared extra keys through raw', () => {
    const include = [{ relation: 'studentEditions' }];
    const parsed = parseFilter(JSON.stringify({ include, type: 'REVIEW_ITEMS' }), resource, {
      extraKeys: ['type'],
    });
    expect(parsed.include).toEqual(include);
    expect(parsed.extra).toEqual({ type: 'REVIEW_ITEMS' });
  });
});

describe('parameters', () => {
  it('never puts a value into the SQL text', () => {
    const evil = "x'); drop table filter_things; --";
    const where = compileWhere(
      parseWhere(
        { or: [{ name: evil }, { name: { regexp: `/${'\\'}'/i` } }, { tags: { inq: [evil] } }] },
        resource,
      ),
      resource,
    );
    if (!where) throw new Error('expected a condition');
    const query = new PgDialect().sqlToQuery(where);
    expect(query.sql).not.toContain('drop');
    expect(query.sql).not.toContain("'");
    expect(query.params).toEqual([evil, "\\'", evil]);
  });
});
