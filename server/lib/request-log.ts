import {
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import { serializeError } from './error-log.js';

/**
 * Fastify logs a request when it arrives and again when it is answered; on exam day that is
 * thousands of lines a second. One line, when answered, carries both.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const line = {
      method: request.method,
      url: loggedUrl(request),
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The request's path as the log keeps it: the route's pattern with its ids filled in, so a
 * support person can still follow one test or answer, but nothing a person typed — no query
 * string (searches by name, filters), no e-mail in `/users/{email}`, no sign-in link code.
 */
function loggedUrl(request: FastifyRequest): string {
  const pattern = request.routeOptions.url;
  if (pattern === undefined) return (request.url.split('?')[0] ?? '').slice(0, 200);
  const params = request.params as Record<string, unknown> | undefined;
  const filled = pattern.replace(/:(\w+)/g, (name, key: string) => {
    const value = params?.[key];
    return typeof value === 'string' && UUID.test(value) ? value : name;
  });
  // The web app's catch-all: the page or file asked for (its query is left out above).
  const rest = params?.['*'];
  return filled.endsWith('*') && typeof rest === 'string'
    ? `${filled.slice(0, -1)}${rest.slice(0, 200)}`
    : filled;
}

/**
 * The logger's options (the given ones, or a logger at `level`), with errors logged by the
 * allow-list of error-log.ts.
 */
export function loggerOptions(
  given: FastifyServerOptions['logger'] | undefined,
  level: string,
): FastifyServerOptions['logger'] {
  const logger = given ?? { level };
  if (typeof logger !== 'object') return logger;
  return { ...logger, serializers: { ...logger.serializers, err: serializeError } };
}
