import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * A jsonb column read as its JSON text and parsed here: a driver that decodes JSON twice
 * would turn the typed answer "3.5" into the number 3.5 (or "null" into null). Read every
 * answer and answer key this way.
 */
export const jsonText = <T>(column: AnyPgColumn | SQL) =>
  sql<T | null>`${column}::text`.mapWith((text: string | null) =>
    text === null ? null : (JSON.parse(text) as T),
  );
