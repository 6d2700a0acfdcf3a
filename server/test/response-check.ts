import { Ajv as Ajv07, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

/**
 * Every answer an API test receives, checked against the OpenAPI description the server
 * serves: its status must be documented for its operation and its body must match the schema
 * documented for that status. A route whose behaviour and description disagree fails the test
 * at the call that showed it.
 */

export type ResponseCheckOptions = {
  /**
   * An error answer (4xx, 5xx) whose status its operation does not document: `'fail'` the test
   * or `'ignore'` it. An undocumented success always fails; a documented error's body is always
   * checked.
   */
  undocumentedStatus?: 'fail' | 'ignore';
};

/**
 * Every operation documents its error answers and their envelope (server/lib/openapi), so an
 * error status it does not document fails the test like any other.
 */
export const UNDOCUMENTED_ERROR_STATUS: 'fail' | 'ignore' = 'fail';

type Schema = Record<string, unknown>;
type MediaType = { schema?: Schema };
type ResponseObject = { content?: Record<string, MediaType> };
type Operation = { responses?: Record<string, ResponseObject> };
export type OpenApiDocument = {
  openapi: string;
  paths?: Record<string, Record<string, unknown>>;
  components?: Record<string, unknown>;
};

export type Answer = {
  method: string;
  /** The path asked for, without its query. */
  path: string;
  statusCode: number;
  contentType: string | undefined;
  body: Buffer;
};

export class ResponseCheckError extends Error {
  override name = 'ResponseCheckError';
}

const DOC_ID = 'https://podium.invalid/openapi.json';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];
// ajv-formats is CommonJS with its function on `default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** A path template of the description, as a matcher of request paths. */
type Template = { template: string; pattern: RegExp; literalSegments: number };

function templateOf(template: string): Template | undefined {
  // The web app's catch-all is no operation of the API: it would match every path.
  if (template.includes('*')) return undefined;
  const segments = template.split('/');
  const source = segments
    .map((s) =>
      /^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`),
    )
    .join('/');
  return {
    template,
    pattern: new RegExp(`^${source}$`),
    literalSegments: segments.filter((s) => !s.startsWith('{')).length,
  };
}

const pointer = (...segments: string[]) =>
  segments.map((s) => encodeURIComponent(s.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

/**
 * OpenAPI 3.0 schemas in JSON Schema's words (3.1's already are): `nullable` becomes a `null`
 * type, and the boolean `exclusiveMinimum`/`exclusiveMaximum` of draft 4 the numbers of later
 * drafts. The document is copied, not changed.
 */
export function toJsonSchemaDialect(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toJsonSchemaDialect);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = toJsonSchemaDialect(inner);
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else {
      delete out[flag];
    }
  }
  if (out.nullable !== true) return out;
  delete out.nullable;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

function makeAjv(document: OpenApiDocument) {
  const options = { strict: false, allErrors: true } as const;
  const ajv = document.openapi.startsWith('3.1') ? new Ajv2020(options) : new Ajv07(options);
  addFormats(ajv);
  // OpenAPI's own formats say how a number or string is stored, not what it may hold.
  for (const format of ['int32', 'int64', 'float', 'double', 'binary', 'password']) {
    ajv.addFormat(format, true);
  }
  return ajv;
}

const statusClass = (status: number) => `${Math.floor(status / 100)}XX`;

const isJson = (contentType: string) =>
  contentType === 'application/json' || /^application\/[^;]+\+json$/.test(contentType);

const shortBody = (body: Buffer) => {
  const text = body.toString('utf8');
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

const errorsText = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''}${paramsText(e)}`)
    .join('; ');

const paramsText = (e: ErrorObject) => {
  const p = e.params as Record<string, unknown>;
  if (typeof p.additionalProperty === 'string') return ` (${p.additionalProperty})`;
  if (Array.isArray(p.allowedValues)) return ` (${p.allowedValues.join(', ')})`;
  return '';
};

/**
 * The check of one answer against a description: `undefined` when the answer is what the
 * description promises (or is no operation of it), else what is wrong, in a sentence.
 */
export function responseChecker(document: OpenApiDocument, options: ResponseCheckOptions = {}) {
  const undocumentedStatus = options.undocumentedStatus ?? UNDOCUMENTED_ERROR_STATUS;
  const doc = (
    document.openapi.startsWith('3.0') ? toJsonSchemaDialect(document) : structuredClone(document)
  ) as OpenApiDocument;
  const ajv = makeAjv(doc);
  ajv.addSchema({ ...doc, $id: DOC_ID } as Schema);
  const validators = new Map<string, ValidateFunction>();
  const templates = Object.keys(doc.paths ?? {})
    .map(templateOf)
    .filter((t) => t !== undefined)
    // Like the router: the path with more fixed segments wins (`users/me` before `users/{id}`).
    .sort((a, b) => b.literalSegments - a.literalSegments);

  /** The templates of an answered path; a slash twin (`/exams` for `/exams/`) counts as it. */
  function templatesFor(method: string, path: string) {
    const withOperation = (p: string) =>
      templates.filter((t) => t.pattern.test(p) && doc.paths?.[t.template]?.[method]);
    const found = withOperation(path);
    if (found.length > 0 || path === '/') return found;
    return withOperation(path.endsWith('/') ? path.slice(0, -1) : `${path}/`);
  }

  function validator(ref: string) {
    let validate = validators.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOC_ID}#/${ref}` });
      validators.set(ref, validate);
    }
    return validate;
  }

  function checkOne(template: string, answer: Answer): string | undefined {
    const method = answer.method.toLowerCase();
    const where = `${answer.method.toUpperCase()} ${template} answered ${answer.statusCode}`;
    const operation = doc.paths?.[template]?.[method] as Operation;
    const responses = operation.responses ?? {};
    // Podium's `default` is the error envelope: it stands for error statuses only.
    const fallback = answer.statusCode >= 400 ? ['default'] : [];
    const status = [String(answer.statusCode), statusClass(answer.statusCode), ...fallback].find(
      (key) => responses[key] !== undefined,
    );
    if (status === undefined) {
      if (answer.statusCode >= 400 && undocumentedStatus === 'ignore') return undefined;
      const documented = Object.keys(responses).join(', ') || 'nothing';
      return `${where}, a status its description does not document (it documents ${documented})`;
    }
    const content = responses[status]?.content ?? {};
    const contentType = answer.contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
    if (answer.body.length === 0) return undefined;
    if (!isJson(contentType)) {
      // Files, pages and text: the media type must be one the description names, when it names any.
      const named = Object.keys(content);
      if (named.length === 0 || named.includes(contentType) || named.includes('*/*')) {
        return undefined;
      }
      return `${where} with ${contentType || 'no content type'}, which its description does not name (it names ${named.join(', ')})`;
    }
    const mediaType = Object.keys(content).find((m) => isJson(m) || m === '*/*');
    if (mediaType === undefined || content[mediaType]?.schema === undefined) {
      return `${where} with a JSON body its description does not document: ${shortBody(answer.body)}`;
    }
    let body: unknown;
    try {
      body = JSON.parse(answer.body.toString('utf8'));
    } catch {
      return `${where} with a body that is not JSON: ${shortBody(answer.body)}`;
    }
    const validate = validator(
      pointer('paths', template, method, 'responses', status, 'content', mediaType, 'schema'),
    );
    if (validate(body)) return undefined;
    return `${where} with a body that does not match its description: ${errorsText(validate.errors)}. Body: ${shortBody(answer.body)}`;
  }

  return (answer: Answer): string | undefined => {
    const method = answer.method.toLowerCase();
    if (!METHODS.includes(method) || method === 'head') return undefined;
    const matches = templatesFor(method, answer.path);
    if (matches.length === 0) return undefined;
    // Two templates may name one path (`users/{id}`, `users/{email}`): any one that agrees will do.
    const best = matches.filter((m) => m.literalSegments === matches[0]?.literalSegments);
    const problems = best.map((m) => checkOne(m.template, answer));
    return problems.includes(undefined) ? undefined : problems.join('\n');
  };
}

/** The method and path an `app.inject` call asked for. */
function requestOf(options: InjectOptions | string): { method: string; path: string } {
  const opts = typeof options === 'string' ? { url: options } : options;
  const url = opts.url ?? opts.path ?? '/';
  const path = typeof url === 'string' ? new URL(url, 'http://podium.test').pathname : url.pathname;
  return { method: String(opts.method ?? 'GET'), path };
}

/**
 * Makes every promise-style `app.inject` of a ready app check its answer against the app's own
 * description (`app.swagger()`), throwing a ResponseCheckError where they disagree.
 */
export function checkResponses(app: FastifyInstance, options: ResponseCheckOptions = {}) {
  const check = responseChecker(app.swagger() as OpenApiDocument, options);
  const inject = app.inject.bind(app);
  const checked = (options?: InjectOptions | string, callback?: unknown) => {
    // The chained and callback styles are passed on as they are (no test uses them).
    if (options === undefined || callback !== undefined) {
      return (inject as (...args: unknown[]) => unknown)(options, callback);
    }
    return inject(options).then((res: LightMyRequestResponse) => {
      const problem = check({
        ...requestOf(options),
        statusCode: res.statusCode,
        contentType: res.headers['content-type']?.toString(),
        // An answer read as a stream (`payloadAsStream`) has no payload to check, only a status.
        body: res.rawPayload ?? Buffer.alloc(0),
      });
      if (problem) throw new ResponseCheckError(problem);
      return res;
    });
  };
  app.inject = checked as FastifyInstance['inject'];
}
