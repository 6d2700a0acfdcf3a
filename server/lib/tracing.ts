import { scrubEvent, TRACES_SAMPLE_RATE } from '../../shared/tracing.js';
import type { Config } from '../config.js';
import { serializeError } from './error-log.js';

type Sentry = typeof import('@sentry/node');

/** The SDK once started; undefined (the default, SENTRY_DSN unset): nothing is reported. */
let sentry: Sentry | undefined;

/** The origin the web app's SDK sends to, for the content policy; undefined when tracing is off. */
export function tracingOrigin(config: Pick<Config, 'tracing'>): string | undefined {
  const { dsn } = config.tracing;
  return dsn ? new URL(dsn).origin : undefined;
}

/**
 * Starts error tracing (SPEC.md §9) when SENTRY_DSN is set: server errors (the 5xx the error
 * handler answers) and a sampled 0.25 of request traces go to the Sentry-compatible service.
 * The SDK is loaded only then, so a server without it does not load it at all. Request
 * bodies are never read into an event, no personal data is attached (`sendDefaultPii` off),
 * and each event and transaction is scrubbed (shared/tracing.ts) before it leaves.
 * `tracesSampleRate` is the tests' only override.
 */
export async function startTracing(
  config: Pick<Config, 'tracing'>,
  options: { tracesSampleRate?: number } = {},
): Promise<boolean> {
  const { dsn, environment } = config.tracing;
  if (!dsn || sentry) return Boolean(sentry);
  const sdk = await import('@sentry/node');
  sdk.init({
    dsn,
    ...(environment ? { environment } : {}),
    tracesSampleRate: options.tracesSampleRate ?? TRACES_SAMPLE_RATE,
    sendDefaultPii: false,
    includeLocalVariables: false,
    integrations: [sdk.httpIntegration({ maxIncomingRequestBodySize: 'none' })],
    beforeSend: (event) => scrubEvent(event),
    beforeSendTransaction: (event) => scrubEvent(event),
    beforeBreadcrumb: (breadcrumb) => (breadcrumb.category === 'console' ? null : breadcrumb),
  });
  sentry = sdk;
  return true;
}

/**
 * Reports an error the server could not answer (a 5xx). A database error is reported as the
 * log shows it (server/lib/error-log.ts): its SQL without parameters, never the values.
 */
export function reportError(error: unknown): void {
  if (!sentry) return;
  const safe = serializeError(error);
  if (safe.type === 'DatabaseError' || !(error instanceof Error)) {
    const copy = new Error(safe.message);
    copy.name = safe.type;
    copy.stack = `${safe.type}: ${safe.message}\n${safe.stack}`;
    sentry.captureException(copy);
    return;
  }
  sentry.captureException(error);
}

/** Sends what is queued, waiting at most `timeoutMs` (a stopping server, a test). */
export async function flushTracing(timeoutMs = 2_000): Promise<void> {
  await sentry?.flush(timeoutMs);
}
