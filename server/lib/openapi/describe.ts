import type { SwaggerTransformObject } from '@fastify/swagger';
import type { FastifySchema, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_CODES, ERROR_STATUS, type ErrorCode } from '../../../shared/errors.js';
import { type GuardFacts, guardOf } from '../auth-guard.js';
import { describeFilter, describeWhere, exampleFilter, exampleWhere } from '../filter/describe.js';
import {
  DEFAULT_ERROR_RESPONSE,
  ERROR_BODY,
  errorBodyComponent,
  errorResponse,
} from './error-responses.js';
import { operationIdOf } from './operation-ids.js';
import { PARAMETER_DESCRIPTIONS } from './parameters.js';
import type { MultipartDoc } from './route-doc.js';
import { addExamples } from './samples.js';
import { SERVICES, serviceOf } from './services.js';

// The OpenAPI description (`/api/docs/json`) is made from the routes: their zod schemas (by
// fastify-type-provider-zod), and here what the routes already say in other ways — the URL
// names the service (the tag) and the operation (its operationId), the guard says whether a
// token is needed and who may call, the path's ids and the body say which refusals can come.
// A route adds only what nothing else tells: `errors` it can give, its `multipart` body, the
// `list` behind its `filter`/`where`.

type JsonObject = Record<string, unknown>;
type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/** The private key that carries an operation's error codes from `transform` to `transformObject`. */
const ERRORS_KEY = 'x-podium-errors';

const STATUS_ORDER = [400, 401, 403, 404, 409, 413, 415, 429, 503];

/** Who may call, in words, from the route's guard. */
function accessNote(guardFacts: GuardFacts | undefined): string {
  if (!guardFacts) return 'Public: no token needed.';
  const who = guardFacts.roles ? guardFacts.roles.join(' or ') : 'any signed-in user';
  const unfinished =
    guardFacts.active || guardFacts.registered
      ? ` (an account that is ${[
          guardFacts.registered ? 'registered' : '',
          guardFacts.active ? 'active' : '',
        ]
          .filter(Boolean)
          .join(' and ')}, or an admin)`
      : ', including accounts not yet registered or active';
  return `Bearer token of ${who}${unfinished}.`;
}

const CODE_PATTERN = new RegExp(`\\b(${ERROR_CODES.join('|')})\\b`, 'g');

/** The error codes an operation can answer, by status. */
function errorCodesOf(
  schema: FastifySchema,
  route: { url: string; guard?: GuardFacts; rateLimited: boolean },
): Record<number, ErrorCode[]> {
  // What the route says it answers: its `errors`, and the codes its words name.
  const named = new Set<ErrorCode>(schema.errors ?? []);
  for (const text of [schema.description, schema.summary]) {
    for (const match of (text ?? '').matchAll(CODE_PATTERN)) named.add(match[1] as ErrorCode);
    if (/\b403\b/.test(text ?? '')) named.add('OPERATION_NOT_PERMITTED');
    if (/\b404\b/.test(text ?? '')) named.add('NOT_FOUND');
  }
  const hasBody =
    schema.body !== undefined || schema.multipart !== undefined || schema.binaryBody !== undefined;
  const codes = new Set<ErrorCode>(['VALIDATION_FAILED', 'CLIENT_ERROR', ...named]);
  if (schema.multipart) codes.add('INVALID_MULTIPART');
  if (route.guard) codes.add('UNAUTHORIZED');
  const guardRefuses =
    route.guard && (route.guard.roles || route.guard.active || route.guard.registered);
  if (guardRefuses) codes.add('OPERATION_NOT_PERMITTED');
  if (/:\w+/.test(route.url)) codes.add('NOT_FOUND');
  if (hasBody) codes.add('FILE_TOO_LARGE');
  if (route.rateLimited) codes.add('TOO_MANY_ATTEMPTS');
  const byStatus: Record<number, ErrorCode[]> = {};
  const add = (status: number, code: ErrorCode) => {
    byStatus[status] = [...(byStatus[status] ?? []), code];
  };
  // A body of a type the route does not read is refused before it (CLIENT_ERROR, 415).
  if (hasBody) add(415, 'CLIENT_ERROR');
  for (const code of codes) {
    // The server's own failure and the URL limit are in every operation's `default`.
    if (code === 'GENERAL_ERROR' || code === 'URL_TOO_LONG') continue;
    add(ERROR_STATUS[code], code);
  }
  return byStatus;
}

/** A multipart body as an OpenAPI schema: files are binary strings. */
function multipartSchema(doc: MultipartDoc): JsonObject {
  const properties: JsonObject = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(doc.files ?? {})) {
    properties[name] = field.many
      ? { type: 'array', items: BYTES, description: field.description }
      : { ...BYTES, description: field.description };
    if (field.required) required.push(name);
  }
  if (doc.numbered) {
    for (let i = 0; i < doc.numbered.max; i += 1) {
      properties[`${doc.numbered.prefix}${i}`] = {
        ...BYTES,
        description: `${doc.numbered.description} (file ${i + 1} of at most ${doc.numbered.max})`,
      };
    }
  }
  for (const [name, field] of Object.entries(doc.fields ?? {})) {
    properties[name] = {
      type: 'string',
      description: field.description,
      ...(field.enum ? { enum: [...field.enum] } : {}),
    };
    if (field.required) required.push(name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A MIME type, as routes that send a file describe their `z.unknown()` answer. */
const MIME = /^[a-z]+\/[\w.+-]+$/;

const BYTES = { type: 'string', format: 'binary' };
const JSON_DOCUMENT = {
  type: 'object',
  description: 'One JSON document, sent as a file to save (Content-Disposition: attachment).',
  additionalProperties: true,
};

/** The MIME types a `z.unknown()` answer is described with ("a/b" or "a/b, c/d"), or none. */
const mediaTypesOf = (description: string) => {
  const types = description.split(/,\s*/);
  return types.every((type) => MIME.test(type)) ? types : [];
};

/**
 * Answers that are a file's bytes (a zod `instanceof(Buffer)`, which JSON Schema cannot say,
 * or a `z.unknown()` described by its MIME type, or several a query chooses between) taken out
 * of the schema, and described as binary content of their type.
 */
function withoutFileResponses(schema: FastifySchema): {
  zodSchema: FastifySchema;
  files: Record<string, JsonObject>;
} {
  const response = (schema.response ?? {}) as Record<string, unknown>;
  const files: Record<string, JsonObject> = {};
  const kept: Record<string, unknown> = {};
  for (const [status, part] of Object.entries(response)) {
    const kind = part instanceof z.ZodType ? part._zod.def.type : undefined;
    const what = part instanceof z.ZodType ? (part.description ?? '') : '';
    const described = mediaTypesOf(what);
    const isFile = kind === 'custom' || (kind === 'unknown' && described.length > 0);
    if (!isFile) {
      kept[status] = part;
      continue;
    }
    // A file whose type is known only when it is sent (a page, an image) is any media type.
    const types = described.length > 0 ? described : /xlsx/.test(what) ? [XLSX] : ['*/*'];
    files[status] = {
      description:
        types[0] === '*/*'
          ? "The file's bytes; its Content-Type says what it is (pdf, png, jpeg, zip…)."
          : `The file (${types.join(' or ')}).`,
      content: Object.fromEntries(
        types.map((type) => [
          type,
          // A JSON download is still a JSON document; anything else is bytes.
          { schema: type === 'application/json' ? JSON_DOCUMENT : BYTES },
        ]),
      ),
    };
  }
  return {
    zodSchema: schema.response === undefined ? schema : { ...schema, response: kept },
    files,
  };
}

/** Describes the `filter`/`where` query parameters of a list route, with an example each. */
function describeListParameters(querystring: JsonObject | undefined, schema: FastifySchema): void {
  const list = schema.list;
  const properties = querystring?.properties as Record<string, JsonObject> | undefined;
  if (!list || !properties) return;
  const resource = list.resources[0]?.resource;
  if (properties.filter) {
    properties.filter.description = describeFilter(list);
    if (resource) properties.filter.examples = [JSON.stringify(exampleFilter(resource))];
  }
  if (properties.where) {
    properties.where.description = describeWhere(list);
    if (resource) properties.where.examples = [JSON.stringify(exampleWhere(resource))];
  }
}

/** Gives each parameter without a description the one its name has across the API. */
function describeParameters(part: JsonObject | undefined, path: string): void {
  const properties = part?.properties as Record<string, JsonObject> | undefined;
  for (const [name, property] of Object.entries(properties ?? {})) {
    if (property.description) continue;
    const known = PARAMETER_DESCRIPTIONS[name];
    const description = typeof known === 'function' ? known(path) : known;
    if (description) property.description = description;
  }
}

/**
 * The swagger `transform`: the zod schemas become JSON Schema (fastify-type-provider-zod),
 * then each operation gets its tag, operationId, security, error codes, multipart body and
 * list parameters. Routes outside the API (the web app) are left out.
 */
export function createTransform(apiPrefix: string) {
  return (input: TransformInput) => {
    const route = (input as { route: RouteOptions }).route;
    const schema = (input.schema ?? {}) as FastifySchema;
    if (!input.url.startsWith(`${apiPrefix}/`) || schema.hide) {
      return { schema: { hide: true }, url: input.url };
    }
    const { errors: _errors, multipart, binaryBody, list: _list, redirect, ...rest } = schema;
    const { zodSchema, files } = withoutFileResponses(rest);
    const transformed = jsonSchemaTransform({ ...input, schema: zodSchema } as TransformInput);
    const out = { ...(transformed.schema as JsonObject) };
    if (Object.keys(files).length) out.response = { ...(out.response as JsonObject), ...files };
    if (redirect) {
      out.response = {
        ...(out.response as JsonObject),
        302: {
          description: redirect,
          headers: { location: { type: 'string', description: 'Where the browser goes.' } },
        },
      };
    }
    const path = input.url.slice(apiPrefix.length);
    const method = [route.method].flat()[0] ?? 'GET';
    const guardFacts = guardOf(route);
    const service = serviceOf(path);
    if (service) out.tags = [service.name];
    // Ids leave out the service (`getExams`, not `getExamMgmtExams`), but for health, whose
    // one word is its whole path.
    const inService =
      service && service.prefix !== '/health' ? path.slice(service.prefix.length) : path;
    out.operationId = schema.operationId ?? operationIdOf(method, inService);
    out.security = guardFacts ? [{ bearer: [] }] : [];
    const text = [schema.description ?? '', accessNote(guardFacts)].filter(Boolean).join('\n\n');
    out.description = text;
    if (multipart) {
      out.body = multipartSchema(multipart);
      out.consumes = ['multipart/form-data'];
    }
    if (binaryBody) {
      out.body = { type: 'string', format: 'binary', description: binaryBody.description };
      out.consumes = [binaryBody.contentType];
    }
    describeListParameters(out.querystring as JsonObject | undefined, schema);
    for (const part of ['params', 'querystring', 'headers'] as const) {
      describeParameters(out[part] as JsonObject | undefined, path);
    }
    const rateLimited = Boolean((route.config as { rateLimit?: unknown } | undefined)?.rateLimit);
    out[ERRORS_KEY] = errorCodesOf(schema, { url: input.url, guard: guardFacts, rateLimited });
    return { schema: out, url: input.url };
  };
}

/**
 * OpenAPI 3.0's `nullable` applies only beside a `type`; a nullable union (`anyOf`) gets a
 * null member instead, as @fastify/swagger writes a lone null. Walks the whole document.
 */
function fixNullableUnions(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) fixNullableUnions(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as JsonObject;
  if (schema.nullable === true && schema.type === undefined) {
    delete schema.nullable;
    const union = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
    union?.push({ type: 'object', nullable: true, enum: [null] });
  }
  for (const value of Object.values(schema)) fixNullableUnions(value);
}

type Operation = JsonObject & { responses?: Record<string, JsonObject> };
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/**
 * The swagger `transformObject`: the error envelope, each operation's error responses and
 * examples, the services as tags in SPEC.md's order, and what the document says of itself.
 */
export const transformObject: SwaggerTransformObject = (input) => {
  if (!('openapiObject' in input)) throw new Error('Only OpenAPI 3 is described');
  const openapiObject = input.openapiObject as JsonObject;
  const components = (openapiObject.components ?? {}) as JsonObject;
  const schemas = { ...((components.schemas ?? {}) as JsonObject) };
  schemas[ERROR_BODY] = errorBodyComponent();
  const paths = (openapiObject.paths ?? {}) as Record<string, Record<string, Operation>>;
  fixNullableUnions(paths);
  const used = new Set<string>();
  for (const item of Object.values(paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const codes = (op[ERRORS_KEY] ?? {}) as Record<number, ErrorCode[]>;
      delete op[ERRORS_KEY];
      const responses: Record<string, JsonObject> = { ...(op.responses ?? {}) };
      for (const status of STATUS_ORDER) {
        const list = codes[status];
        if (list?.length) responses[String(status)] = errorResponse(status, list);
      }
      responses.default = structuredClone(DEFAULT_ERROR_RESPONSE);
      // A redirect has no body (@fastify/swagger gives its description one).
      if (responses['302']) delete responses['302'].content;
      op.responses = responses;
      addExamples(op, schemas);
      for (const tag of (op.tags ?? []) as string[]) used.add(tag);
    }
  }
  const described = {
    ...openapiObject,
    info: {
      title: 'Podium API',
      version: '1',
      description:
        'The API of Podium, school competitions in maths and computer science from sign-up to ' +
        'diploma, grouped by the services of its specification. Every call but signing up and ' +
        'in takes a bearer token (`POST /api/v1/auth-service/auth/login`). Lists take ' +
        'LoopBack-style `filter` and their counts `where` query parameters, as JSON text. ' +
        'Every refusal and failure answers the same envelope, `ErrorBody`: clients act on ' +
        '`error.code`.',
      contact: { name: 'Podium' },
    },
    servers: [
      {
        url: '{origin}',
        description: 'Where Podium runs; paths start with /api/v1.',
        variables: {
          origin: { default: 'http://localhost:3000', description: 'Scheme, host and port.' },
        },
      },
    ],
    tags: SERVICES.filter((s) => used.has(s.name)).map((s) => ({
      name: s.name,
      description: s.description,
    })),
    components: { ...components, schemas },
  };
  return described as ReturnType<SwaggerTransformObject>;
};
