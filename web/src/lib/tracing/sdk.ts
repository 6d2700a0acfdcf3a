import {
  type BrowserOptions,
  browserTracingIntegration,
  captureException,
  init,
} from '@sentry/browser';
import { scrubEvent, TRACES_SAMPLE_RATE } from '../../../../shared/tracing.js';

/**
 * The browser SDK, loaded by ./index.ts only when tracing is on: uncaught errors and a sampled
 * 0.25 of page loads and navigations, scrubbed of anything personal before they leave
 * (shared/tracing.ts: no user, cookies or query strings, no e-mails or tokens; console text and
 * the text of clicked elements are not kept as breadcrumbs).
 */
export function start(settings: { dsn: string; environment?: string }): void {
  const options: BrowserOptions = {
    dsn: settings.dsn,
    ...(settings.environment ? { environment: settings.environment } : {}),
    tracesSampleRate: TRACES_SAMPLE_RATE,
    sendDefaultPii: false,
    integrations: [browserTracingIntegration()],
    beforeSend: (event) => scrubEvent(event),
    beforeSendTransaction: (event) => scrubEvent(event),
    beforeBreadcrumb: (breadcrumb) => (breadcrumb.category === 'console' ? null : breadcrumb),
  };
  init(options);
}

export function capture(error: unknown): void {
  captureException(error);
}
