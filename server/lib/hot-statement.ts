import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';

// Exam day's hottest statements are plain SQL text with `$n` parameters, sent as named
// prepared statements on PostgreSQL: parsed and planned once per connection, no query builder
// on the way. The same text runs on PGlite through drizzle.

/** Binds `$n` placeholders for drizzle (PGlite has no pool to send them as they are). */
export function bindPositional(text: string, values: readonly unknown[]) {
  const parts = text.split(/\$(\d+)/);
  return sql.join(
    // sql.param: an array goes as one array value, not spread into a list.
    parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql.param(values[Number(part) - 1]))),
  );
}

/**
 * One hot statement, outside any transaction: on PostgreSQL a named prepared statement
 * straight on the pool, on PGlite through drizzle. Answers the rows.
 */
export function hotStatement<P extends readonly unknown[], R>(
  database: Pick<Database, 'db' | 'pool'>,
  name: string,
  text: string,
) {
  const { pool, db } = database;
  return async (params: P): Promise<R[]> => {
    if (pool) {
      const result = await pool.query({ name, text, values: [...params] });
      return result.rows as R[];
    }
    const result = await db.execute(bindPositional(text, params));
    return (result as unknown as { rows: R[] }).rows;
  };
}

/** The statement's parsing and planning done once on a new connection (see `warm…` callers). */
export type WarmableClient = {
  query: (config: { name: string; text: string; values: unknown[] }) => Promise<unknown>;
};
