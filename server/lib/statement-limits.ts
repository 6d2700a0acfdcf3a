import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { type StatementTimeouts, withStatementTimeout } from '../db/statement-timeout.js';

/** Files made of whole lists: spreadsheets, CSV, PDFs, archives. */
const EXPORT_ROUTE = /\/(downloads?|csv|pdf|files|zip|diplomas?)(\/:[^/]+)?$/;

/**
 * A route's statement limit (server/db/statement-timeout.ts), or undefined for the connection's
 * own, shortest one: exam day's player routes (their hot statements must not pay a round trip
 * for it), the health checks (load balancers want an answer at once) and what is not the API.
 */
export function statementLimitOf(
  url: string,
  apiPrefix: string,
  timeouts: StatementTimeouts,
): number | undefined {
  if (!url.startsWith(`${apiPrefix}/`)) return undefined;
  const path = url.slice(apiPrefix.length);
  if (path.startsWith('/test-player/') || path.startsWith('/health')) return undefined;
  return EXPORT_ROUTE.test(path) ? timeouts.exportMs : timeouts.requestMs;
}

/** Every route registered from now on runs its handler under its class's statement limit. */
export function registerStatementLimits(
  app: FastifyInstance,
  apiPrefix: string,
  timeouts: StatementTimeouts,
): void {
  app.addHook('onRoute', (route) => {
    const ms = statementLimitOf(route.url, apiPrefix, timeouts);
    if (ms === undefined) return;
    const handler = route.handler as RouteHandlerMethod;
    route.handler = function limited(request, reply) {
      return withStatementTimeout(ms, () => handler.call(this, request, reply));
    };
  });
}
