import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { ValidationIssue } from '../../shared/errors.js';
import { isStorableText } from '../../shared/text-input.js';
import { validationFailed } from './errors.js';

type Path = ValidationIssue['path'];

/** Deeper JSON than any of our bodies has is refused rather than walked. */
const MAX_DEPTH = 32;

/** Where the first unusable text is, or undefined; `tooDeep` when the nesting is absurd. */
type Finding = { path: Path; tooDeep: boolean };

/**
 * The first string (value or key) of a parsed JSON value that PostgreSQL could not store, by
 * its path. Reads the parsed value in place: no copy and no serialising, so the exam-day answer
 * write (three small fields) pays a few string scans.
 */
export function findUnstorableText(value: unknown, depth = 0): Finding | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : found([]);
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return undefined;
  if (depth >= MAX_DEPTH) return { path: [], tooDeep: true };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const inner = findUnstorableText(value[i], depth + 1);
      if (inner) return prefixed(i, inner);
    }
    return undefined;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (!isStorableText(key)) return found([key]);
    const inner = findUnstorableText((value as Record<string, unknown>)[key], depth + 1);
    if (inner) return prefixed(key, inner);
  }
  return undefined;
}

const found = (path: Path): Finding => ({ path, tooDeep: false });
const prefixed = (key: string | number, inner: Finding): Finding => ({
  path: [key, ...inner.path],
  tooDeep: inner.tooDeep,
});

/** VALIDATION_FAILED for the first unusable text of one part of the request, if any. */
export function checkTextPart(value: unknown, part: string) {
  const finding = findUnstorableText(value);
  if (!finding) return undefined;
  const code = finding.tooDeep ? 'invalid' : 'invalid_characters';
  return validationFailed([{ code, path: finding.path }], `Invalid ${part}`);
}

/**
 * The net under every route: before any schema or handler runs, each text of the JSON body,
 * the query string and the path parameters is checked once (no NUL, no unpaired surrogate), so
 * no route can hand PostgreSQL a text it refuses — a 400 `invalid_characters` naming the field
 * instead of a 500, for routes added later too. JSON inside `filter`/`where` is checked where it
 * is parsed (server/lib/filter), multipart fields and file names by server/lib/multipart.ts.
 */
export function registerTextInputCheck(app: FastifyInstance): void {
  app.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
    const error =
      checkTextPart(request.params, 'params') ??
      checkTextPart(request.query, 'querystring') ??
      checkTextPart(request.body, 'body');
    done(error as FastifyError | undefined);
  });
}
