import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  integer,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { type Database, openDatabase } from '../../db/client.js';
import type { ListResource } from './types.js';

/** A table with a column of every filter type, for the filter's tests only. */
export const things = pgTable('filter_things', {
  id: uuid('id').primaryKey(),
  name: text('name'),
  rank: integer('rank'),
  score: doublePrecision('score'),
  active: boolean('active'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }),
  ownerId: uuid('owner_id'),
  tags: text('tags').array(),
  secret: text('secret'),
});

export type Thing = typeof things.$inferSelect;

/** The allow-list: every column but `secret`, plus an expression and a hidden-from-where field. */
export const thingsResource: ListResource = {
  name: 'things',
  fields: {
    _id: { column: things.id, type: 'uuid' },
    name: { column: things.name, type: 'string' },
    rank: { column: things.rank, type: 'number' },
    score: { column: things.score, type: 'number' },
    active: { column: things.active, type: 'boolean' },
    createdAt: { column: things.createdAt, type: 'date' },
    ownerId: { column: things.ownerId, type: 'uuid' },
    tags: { column: things.tags, type: 'stringArray' },
    nameLength: { column: sql`length(${things.name})`, type: 'number' },
    note: { column: things.name, type: 'string', filterable: false, sortable: false },
  },
  defaultOrder: ['name ASC'],
};

export const OWNER_A = '0190a000-0000-7000-8000-00000000000a';
export const OWNER_B = '0190b000-0000-7000-8000-00000000000b';

const NAMES = [
  'Ana',
  'ana',
  'Andrei',
  'Bogdan',
  'Ștefan',
  'Ioana',
  'Irina',
  '100% sigur',
  'sub_linie',
  'bară\\oblică',
  'Zoe',
  'zoe',
  null,
  'Mihai',
  'Maria',
  'Marius',
  'Elena',
  'Ămăr',
  'Radu',
  null,
];
const TAGS: (string[] | null)[] = [['math'], ['cs'], ['math', 'cs'], [], null];

const day = (i: number) => new Date(Date.UTC(2024, 0, 1 + i));

/** Twenty rows with nulls sprinkled in every column. */
export const THINGS: Thing[] = NAMES.map((name, i) => ({
  id: `0190${i.toString(16).padStart(4, '0')}-0000-7000-8000-${i.toString().padStart(12, '0')}`,
  name,
  rank: i === 3 ? null : i % 5,
  score: i === 7 ? null : (i - 6) * 1.5,
  active: i === 5 ? null : i % 2 === 0,
  createdAt: i === 9 ? null : day(i),
  ownerId: i % 3 === 0 ? OWNER_A : i % 3 === 1 ? OWNER_B : null,
  tags: TAGS[i % 5] ?? null,
  secret: `secret-${i}`,
}));

/** A fresh in-memory PGlite holding `filter_things` and its rows. */
export async function openThingsDatabase(): Promise<Database> {
  const database = await openDatabase({ pgliteDir: 'memory://' });
  await database.exec(`create table filter_things (
    id uuid primary key, name text, rank integer, score double precision, active boolean,
    created_at timestamptz, owner_id uuid, tags text[], secret text)`);
  await database.db.insert(things).values(THINGS);
  return database;
}
