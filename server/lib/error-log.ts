import { DrizzleQueryError } from 'drizzle-orm';

/**
 * What a log line may say about an error. A failed query carries its parameters (drizzle puts
 * them in the message, PGlite and pg beside it; PostgreSQL's `detail` repeats the offending
 * value): password hashes, e-mail addresses, answers. So an error is logged by an allow-list of
 * fields, never by its own properties: for a database error the SQL text without parameters,
 * the SQLSTATE and the names PostgreSQL gives (constraint, table, column), its message with
 * quoted values blanked, and the stack frames without the message. This is the logger's `err`
 * serializer (app.ts), so every `{ err }` logged anywhere goes through it.
 */
export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { type: typeof error, message: '', stack: '' };
  const database = databaseCause(error);
  if (database) {
    const { message, ...fields } = database.fields;
    return {
      type: 'DatabaseError',
      message: message ?? 'database query failed',
      ...(database.query ? { query: database.query } : {}),
      ...fields,
      stack: framesOf(error),
    };
  }
  const { code, statusCode } = error as { code?: unknown; statusCode?: unknown };
  return {
    type: error.name,
    message: error.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof statusCode === 'number' ? { statusCode } : {}),
    stack: error.stack ?? '',
    ...(error.cause instanceof Error ? { cause: serializeError(error.cause) } : {}),
  };
}

export type SerializedError = { type: string; message: string; stack: string } & Record<
  string,
  unknown
>;

type PgFields = {
  code?: string;
  severity?: string;
  routine?: string;
  constraint?: string;
  schema?: string;
  table?: string;
  column?: string;
  dataType?: string;
  position?: string;
  message?: string;
};
const PG_NAMES = [
  'code',
  'severity',
  'routine',
  'constraint',
  'schema',
  'table',
  'column',
  'dataType',
  'position',
] as const;

/** PostgreSQL's (or PGlite's) own error: a five-character SQLSTATE and a severity. */
const isPgError = (e: Error) => {
  const { code, severity } = e as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string';
};

/** The query (drizzle's, without parameters) and PostgreSQL's fields of a database failure. */
function databaseCause(error: Error): { query?: string; fields: PgFields } | undefined {
  let query: string | undefined;
  let isDatabase = false;
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; depth += 1) {
    if (e instanceof DrizzleQueryError) {
      query = e.query;
      isDatabase = true;
    }
    if (isPgError(e)) {
      const fields: PgFields = {};
      const source = e as unknown as Record<string, unknown>;
      for (const name of PG_NAMES) {
        if (typeof source[name] === 'string') fields[name] = source[name] as string;
      }
      fields.message = blankQuoted(e.message);
      return { query, fields };
    }
    e = e.cause;
  }
  return isDatabase ? { query, fields: {} } : undefined;
}

/** `invalid input syntax for type uuid: "ana@x.ro"` → `… uuid: "…"`. */
const blankQuoted = (message: string) =>
  message.replace(/"[^"]*"/g, '"…"').replace(/'[^']*'/g, "'…'");

/** Only the `at …` lines: the first lines of a stack repeat the message. */
const framesOf = (error: Error) =>
  (error.stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
