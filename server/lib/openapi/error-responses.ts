import { z } from 'zod';
import { ERROR_CODES, ERROR_STATUS, type ErrorCode, FIELD_CODES } from '../../../shared/errors.js';

/**
 * The one shape every refusal and failure has (server/lib/errors.ts sends it, and so do the
 * router's and Node's own refusals): `{ error: { statusCode, code, message, details? } }`.
 * `code` is what clients act on and translate; `message` is for people reading logs.
 */
export const errorBodySchema = z
  .object({
    error: z
      .object({
        statusCode: z.number().int().min(400).max(599).meta({ description: 'The HTTP status.' }),
        code: z.enum(ERROR_CODES).meta({
          description: 'What went wrong (SPEC.md §8); clients translate it, never the message.',
        }),
        message: z.string().meta({ description: 'A short English note for logs, not for people.' }),
        details: z
          .unknown()
          .optional()
          .meta({
            description:
              'VALIDATION_FAILED: a list of `{ code, path }`, `code` a field code ' +
              `(${FIELD_CODES.join(', ')}) and \`path\` where in the request; CLIENT_ERROR and ` +
              'TEACHER_CODE_NOT_FOUND: `{ field: [code] }`; other codes say in their description ' +
              'when they carry details (failed items, rejected files, a reason).',
          }),
      })
      .strict(),
  })
  .strict()
  .meta({ description: 'The error envelope of every 4xx and 5xx answer.' });

export type ErrorBodyJson = z.infer<typeof errorBodySchema>;

/** The name of the envelope among the description's schemas. */
export const ERROR_BODY = 'ErrorBody';
const ERROR_BODY_REF = `#/components/schemas/${ERROR_BODY}`;

/** What each status means, as the response's description starts. */
const REASONS: Record<number, string> = {
  400: 'Bad request: the request does not pass validation or breaks a rule of its fields',
  401: 'Unauthorized: no bearer token, or one of a session that ended',
  403: 'Forbidden: signed in, but this account may not do this',
  404: 'Not found: no such resource, or one outside what the caller may see',
  409: 'Conflict: the resource is not in a state that allows this',
  413: 'Payload too large',
  414: 'URL too long',
  415: 'Unsupported media type',
  429: 'Too many requests: wait and try again',
  500: 'Server error',
  503: 'Unavailable for now: try again',
};

/** The message the server sends with a code, where it has a fixed one. */
const MESSAGES: Partial<Record<ErrorCode, string>> = {
  VALIDATION_FAILED: 'Invalid body',
  CLIENT_ERROR: 'Invalid field',
  UNAUTHORIZED: 'A valid session is required',
  OPERATION_NOT_PERMITTED: 'Not enough rights',
  NOT_FOUND: 'resource not found',
  TOO_MANY_ATTEMPTS: 'Too many requests',
  FILE_TOO_LARGE: 'Payload too large',
  GENERAL_ERROR: 'An error has occurred',
  QUERY_TIMEOUT: 'The request took too long; try again',
  DATABASE_UNAVAILABLE: 'The database is unavailable; try again',
  URL_TOO_LONG: 'Request line and headers too long',
};

/** An envelope as the server sends it for `code`. */
export function errorExample(code: ErrorCode): ErrorBodyJson {
  const statusCode = ERROR_STATUS[code];
  const details =
    code === 'VALIDATION_FAILED'
      ? [{ code: 'required', path: ['email'] }]
      : code === 'CLIENT_ERROR'
        ? { email: ['invalid_email'] }
        : undefined;
  return {
    error: {
      statusCode,
      code,
      message: MESSAGES[code] ?? code,
      ...(details === undefined ? {} : { details }),
    },
  };
}

/** An OpenAPI response for `status` with the codes an operation may send with it. */
export function errorResponse(status: number, codes: readonly ErrorCode[]) {
  const first = codes[0] ?? 'GENERAL_ERROR';
  const example = errorExample(first);
  example.error.statusCode = status;
  return {
    description: `${REASONS[status] ?? 'Error'}. Codes: ${codes.join(', ')}.`,
    content: { 'application/json': { schema: { $ref: ERROR_BODY_REF }, example } },
  };
}

/** The `default` response every operation has: what no status above covers. */
export const DEFAULT_ERROR_RESPONSE = {
  description:
    'Any other failure, in the same envelope: 500 GENERAL_ERROR; 503 QUERY_TIMEOUT (a ' +
    'statement past its time limit, nothing changed: retry), DATABASE_UNAVAILABLE (the ' +
    'database is restarting or out of reach, nothing changed: retry after Retry-After) or ' +
    'STORAGE_UNAVAILABLE (the file ' +
    'storage did not answer: retry); 414 URL_TOO_LONG (the request line and headers, or one ' +
    'path segment, past the server’s limits).',
  content: {
    'application/json': {
      schema: { $ref: ERROR_BODY_REF },
      example: errorExample('GENERAL_ERROR'),
    },
  },
};

/** The envelope as an OpenAPI 3.0 schema, for the description's components. */
export function errorBodyComponent(): Record<string, unknown> {
  const json = z.toJSONSchema(errorBodySchema, { target: 'openapi-3.0' }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return json;
}
