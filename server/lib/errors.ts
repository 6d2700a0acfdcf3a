import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import {
  ERROR_STATUS,
  type ErrorBody,
  type ErrorCode,
  FIELD_CODES,
  type FieldCode,
  type FieldErrors,
  type ValidationIssue,
} from '../../shared/errors.js';
import { QUERY_CANCELED } from '../db/statement-timeout.js';
import { reportError } from './tracing.js';

/** The one error type services throw: a stable code (shared/errors.ts) and optional details. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly details?: unknown;

  constructor(code: ErrorCode, message?: string, details?: unknown) {
    super(message ?? code);
    this.code = code;
    this.statusCode = ERROR_STATUS[code];
    this.details = details;
  }
}

export const notFound = (what = 'resource') => new AppError('NOT_FOUND', `${what} not found`);
export const forbidden = () => new AppError('OPERATION_NOT_PERMITTED', 'Not enough rights');

/** A CLIENT_ERROR that lands on form fields: `{ field: [code] }`. */
export const fieldError = (fields: FieldErrors, message = 'Invalid field') =>
  new AppError('CLIENT_ERROR', message, fields);

const asFieldCode = (message: string): FieldCode =>
  (FIELD_CODES as readonly string[]).includes(message) ? (message as FieldCode) : 'invalid';

/**
 * A value of the wrong type is `invalid`; only an absent one is `required`. Zod 4 leaves the
 * input out of its issues unless asked, so its default message ("… received undefined") tells.
 */
function isMissing(code: unknown, message: string, hasInput: boolean, input: unknown): boolean {
  if (code !== 'invalid_type') return false;
  return hasInput ? input === undefined : /received undefined$/.test(message);
}

/** Zod issues → VALIDATION_FAILED details (our schemas use field codes as messages). */
export function zodIssues(error: ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({
    code: isMissing(issue.code, issue.message, 'input' in issue, issue.input)
      ? 'required'
      : asFieldCode(issue.message),
    path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
  }));
}

export const validationFailed = (issues: ValidationIssue[], message = 'Validation failed') =>
  new AppError('VALIDATION_FAILED', message, issues);

/** One item of Fastify's `error.validation`, as fastify-type-provider-zod fills it. */
type FastifyValidationItem = {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: { input?: unknown };
};

/** The value at `path` in what the client sent, or undefined when it sent none there. */
function valueAt(source: unknown, path: (string | number)[]): unknown {
  let v: unknown = source;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[key];
  }
  return v;
}

function fromValidationItem(v: FastifyValidationItem, sent: unknown): ValidationIssue {
  const path = (v.instancePath ?? '')
    .split('/')
    .filter(Boolean)
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  // What the client sent decides: a field it left out is `required` whatever the schema's
  // message for a bad value is; a value it did send is judged by that message.
  const absent = path.length > 0 && valueAt(sent, path) === undefined;
  const missing =
    absent ||
    isMissing(
      v.keyword,
      v.message ?? '',
      v.params !== undefined && 'input' in v.params,
      v.params?.input,
    );
  return { code: missing ? 'required' : asFieldCode(v.message ?? 'invalid'), path };
}

/** PostgreSQL cancelled a statement past its `statement_timeout` (SQLSTATE 57014). */
function isStatementTimeout(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth += 1) {
    if ((e as { code?: unknown }).code === QUERY_CANCELED) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** Node's socket failures: the database cannot be reached or dropped the connection. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * SQLSTATEs of a database that is restarting, shutting down, full or closed to connections:
 * class 08 (connection exception), 57P01–57P03 (admin or crash shutdown, cannot connect now),
 * 53300 (too many connections), 55000 only as "not currently accepting connections".
 */
function isUnavailableState(code: string, message: string): boolean {
  return (
    code.startsWith('08') ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    code === '53300' ||
    (code === '55000' && message.includes('not currently accepting connections'))
  );
}
/** node-postgres's own words when a connection ends or cannot be had in time. */
const POOL_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Cannot use a pool after calling end',
];

/**
 * The database is away (restarting, failing over, unreachable, out of connections), not the
 * request wrong: the caller should come back in a moment, and nothing was done.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; depth += 1) {
    const code = (e as { code?: unknown }).code;
    const message = String((e as { message?: unknown }).message ?? '');
    if (
      typeof code === 'string' &&
      (NETWORK_CODES.has(code) || isUnavailableState(code, message))
    ) {
      return true;
    }
    if (POOL_MESSAGES.some((m) => message.includes(m))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** How long a caller waits before trying again while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

const body = (
  statusCode: number,
  code: ErrorCode,
  message: string,
  details?: unknown,
): ErrorBody => ({
  error: { statusCode, code, message, ...(details === undefined ? {} : { details }) },
});

/**
 * One handler turns every failure into `{ error: { statusCode, code, message, details } }`.
 * Unknown failures become GENERAL_ERROR with nothing of their internals; Fastify's own 4xx
 * (malformed JSON, body too large, unsupported media type) stay 4xx as CLIENT_ERROR.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    if (error instanceof AppError) {
      // A refusal of ours is the caller's business; a 5xx (storage or Chromium unavailable)
      // is the operator's, and is logged with why.
      if (error.statusCode >= 500) {
        request.log.error({ err: error }, error.code);
        reportError(error);
      }
      // A 503 that knows when to come back (PDF_BUSY) says so the HTTP way too.
      const retryAfter = (error.details as { retryAfter?: unknown } | undefined)?.retryAfter;
      if (error.statusCode === 503 && typeof retryAfter === 'number') {
        reply.header('retry-after', String(retryAfter));
      }
      return reply
        .status(error.statusCode)
        .send(body(error.statusCode, error.code, error.message, error.details));
    }
    if (error instanceof ZodError) {
      return reply
        .status(400)
        .send(body(400, 'VALIDATION_FAILED', 'Validation failed', zodIssues(error)));
    }
    const fe = error as FastifyError & { validation?: unknown; validationContext?: string };
    if (Array.isArray(fe.validation)) {
      const part = fe.validationContext as
        | 'body'
        | 'querystring'
        | 'params'
        | 'headers'
        | undefined;
      const sent = part ? (request as unknown as Record<string, unknown>)[part] : undefined;
      const issues = (fe.validation as FastifyValidationItem[]).map((v) =>
        fromValidationItem(v, sent ?? {}),
      );
      return reply
        .status(400)
        .send(
          body(400, 'VALIDATION_FAILED', `Invalid ${fe.validationContext ?? 'request'}`, issues),
        );
    }
    const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
    if (status === 429) {
      return reply.status(429).send(body(429, 'TOO_MANY_ATTEMPTS', 'Too many requests'));
    }
    if (status === 413 || fe.code === 'FST_REQ_FILE_TOO_LARGE') {
      return reply.status(413).send(body(413, 'FILE_TOO_LARGE', 'Payload too large'));
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send(body(status, 'CLIENT_ERROR', fe.message));
    }
    if (isStatementTimeout(error)) {
      request.log.warn({ err: error }, 'statement timeout');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send(body(503, 'QUERY_TIMEOUT', 'The request took too long; try again'));
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .send(body(503, 'DATABASE_UNAVAILABLE', 'The database is unavailable; try again'));
    }
    request.log.error({ err: error }, 'unhandled error');
    reportError(error);
    return reply.status(500).send(body(500, 'GENERAL_ERROR', 'An error has occurred'));
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send(body(404, 'NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}`));
  });
}

/**
 * The longest request line plus headers Node reads (its default is 16 KiB). A list's `filter`
 * may hold 100,000 characters of JSON; percent-encoded, its punctuation takes three bytes
 * each, so a URL carrying the longest filter fits with room for the headers.
 */
export const MAX_HEADER_BYTES = 320 * 1024;
/** The longest single path segment (`/users/{email}`, ids) the router takes. */
export const MAX_PARAM_LENGTH = 500;

const rawReply = (socket: Socket, status: number, payload: ErrorBody) => {
  const json = JSON.stringify(payload);
  const reason = status === 414 ? 'URI Too Long' : 'Bad Request';
  socket.write(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(json)}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${json}`,
  );
};

/**
 * Requests Node refuses before Fastify sees them (a request line and headers past
 * MAX_HEADER_BYTES, a malformed request) are answered in the usual error envelope too:
 * URL_TOO_LONG (414) and CLIENT_ERROR (400).
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable && error.code !== 'ERR_HTTP_REQUEST_TIMEOUT') {
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      rawReply(socket, 414, body(414, 'URL_TOO_LONG', 'Request line and headers too long'));
    } else {
      rawReply(socket, 400, body(400, 'CLIENT_ERROR', 'Malformed request'));
    }
  }
  socket.destroy(error);
}

/** The router's own refusals (a path segment too long, a broken URL), in the envelope. */
export function frameworkErrors(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    reply.status(414).send(body(414, 'URL_TOO_LONG', 'Path segment too long'));
    return;
  }
  const status =
    typeof error.statusCode === 'number' && error.statusCode < 500 ? error.statusCode : 400;
  reply.status(status).send(body(status, 'CLIENT_ERROR', 'Malformed request'));
}
