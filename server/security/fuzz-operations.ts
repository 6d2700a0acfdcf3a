// The API's operations as the fuzzer knows them, read from the OpenAPI description.

import type { RegisteredRoute } from '../app.js';
import type { JsonSchema } from './json-sample.js';
import { partSchema, routeKey } from './route-calls.js';

/** One operation of the API: what the fuzzer knows about a route. */
export type Operation = {
  /** `METHOD /path/{param}`, as the access rules spell it. */
  key: string;
  method: string;
  /** Path parameters' names, in order. */
  pathParams: string[];
  query: { name: string; schema: JsonSchema; required: boolean }[];
  /** The JSON body's schema, when the operation takes one. */
  body?: JsonSchema;
  /** Where `$ref`s of the schemas point (the description's components). */
  root: JsonSchema;
};

type OpenApiParameter = { in: string; name: string; required?: boolean; schema?: JsonSchema };
type OpenApiOperation = {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};
export type OpenApiDocument = {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/**
 * The operations of the OpenAPI description, then every registered route the description
 * leaves out (hidden routes, whose parts are read from their own schemas) but HEAD, which
 * answers as its GET.
 */
export function operationsOf(
  doc: OpenApiDocument,
  routeTable: readonly RegisteredRoute[],
): Operation[] {
  const root: JsonSchema = { $defs: doc.components?.schemas ?? {} };
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = op.parameters ?? [];
      ops.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? ''),
        query: params
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: p.schema ?? {}, required: p.required === true })),
        body: op.requestBody?.content?.['application/json']?.schema,
        root,
      });
    }
  }
  const described = new Set(ops.map((o) => o.key));
  for (const route of routeTable) {
    const key = routeKey(route);
    if (route.method === 'HEAD' || described.has(key)) continue;
    described.add(key);
    const query = partSchema(route, 'querystring');
    const required = new Set(query?.required ?? []);
    ops.push({
      key,
      method: route.method,
      pathParams: [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1] ?? ''),
      query: Object.entries(query?.properties ?? {}).map(([name, schema]) => ({
        name,
        schema,
        required: required.has(name),
      })),
      body: partSchema(route, 'body'),
      root: {},
    });
  }
  return ops;
}
