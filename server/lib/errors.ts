import type { FastifyError, FastifyInstance } from 'fastify';
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
      if (error.statusCode >= 500) request.log.error({ err: error }, error.code);
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
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(body(500, 'GENERAL_ERROR', 'An error has occurred'));
  });

  app.setNotFoundHandler((request, reply) => {
    reply
      .status(404)
      .send(body(404, 'NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}`));
  });
}
