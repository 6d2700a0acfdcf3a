import type { FastifyInstance, InjectOptions } from 'fastify';
import createClient from 'openapi-fetch';
import type { paths } from '../../shared/api/schema.js';

/**
 * The typed client generated from the API's description (`npm run api:client`), talking to a
 * test app in-process: each request goes through `app.inject` on the test database, so a route
 * whose schema changes breaks the tests that call it at compile time.
 */

/** A `fetch` that answers from `app.inject` instead of the network. */
export function injectFetch(app: FastifyInstance) {
  return async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const payload = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const headers = Object.fromEntries(request.headers);
    // No body, no content type: Fastify refuses an empty body that claims to be JSON.
    if (payload === undefined || payload.length === 0) delete headers['content-type'];
    const res = await app.inject({
      method: request.method as InjectOptions['method'],
      url: `${url.pathname}${url.search}`,
      headers,
      ...(payload && payload.length > 0 ? { payload } : {}),
    });
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      for (const one of [value ?? []].flat()) answerHeaders.append(name, String(one));
    }
    // The statuses a Response may not carry a body with.
    const noBody = [101, 204, 205, 304].includes(res.statusCode) || request.method === 'HEAD';
    return new Response(noBody ? null : new Uint8Array(res.rawPayload), {
      status: res.statusCode,
      statusText: res.statusMessage,
      headers: answerHeaders,
    });
  };
}

/**
 * The typed client on a test app, sending `headers` (a person's sign-in headers) with every
 * request: `api.GET('/api/v1/…/{id}', { params: { path: { id } } })`.
 */
export function apiClient(app: FastifyInstance, headers: Record<string, string> = {}) {
  return createClient<paths>({ baseUrl: 'http://podium.test', fetch: injectFetch(app), headers });
}

export type ApiClient = ReturnType<typeof apiClient>;

/** What a client call resolves to, whatever its operation. */
export type ApiAnswer<T = unknown> = { data?: T; error?: unknown; response: Response };

/** Awaits a client call, fails unless it answered `status`, and gives its typed body. */
export async function answered<T>(call: Promise<ApiAnswer<T>>, status: number): Promise<T> {
  const { data, error, response } = await call;
  if (response.status !== status) {
    throw new Error(`expected ${status}, answered ${response.status}: ${JSON.stringify(error)}`);
  }
  return data as T;
}

/** The error code of a failed call's body (`{ error: { code } }`). */
export const errorCodeOf = (error: unknown) =>
  (error as { error?: { code?: string } } | undefined)?.error?.code;
