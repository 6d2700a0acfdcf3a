/**
 * Error tracing (SPEC.md §9: sampled at 0.25), shared by the server and the web app: the
 * sample rate and the scrubbing every event and transaction goes through before it leaves.
 * Nothing personal is sent: no user, no cookies, headers or request bodies, no query strings
 * (a search holds names, a sign-in link its one-time code), and no e-mail address, bearer
 * token or long random token wherever it appears in a message, a breadcrumb or a span. This
 * file imports nothing: the web app loads it only with the tracing SDK, never on first load.
 */

/** Share of requests and page loads whose trace is sent (SPEC.md §9). */
export const TRACES_SAMPLE_RATE = 0.25;

const REDACTED = '[redacted]';

/** Keys whose values are the tracing service's own identifiers, kept as they are. */
const OWN_IDS = new Set([
  'event_id',
  'trace_id',
  'span_id',
  'parent_span_id',
  'segment_id',
  'sid',
  'release',
  'dist',
  'environment',
  'sdk',
  'platform',
]);

/** Keys dropped wherever they appear: what a request carried in and who made it. */
const DROPPED = new Set([
  'user',
  'cookies',
  'cookie',
  'headers',
  'data',
  'body',
  'query_string',
  'env',
  'ip_address',
  'http.query',
  'url.query',
  'http.request.header.cookie',
  'http.request.header.authorization',
]);

const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[A-Za-z]{2,}/g;
const BEARER = /\b(Bearer|Basic)\s+[^\s"',]+/gi;
/** A query string: from `?` to the end of the URL (a space, a quote or a `#`). */
const QUERY = /\?[^\s"'#]*/g;
/** uuids are ids, not secrets: everything else this long of a token's alphabet is redacted. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LONG_TOKEN = /[A-Za-z0-9_~+/=.-]{32,}/g;

/** The text with e-mails, credentials, query strings and long tokens taken out. */
export function scrubText(text: string): string {
  return text
    .replace(BEARER, `$1 ${REDACTED}`)
    .replace(EMAIL, REDACTED)
    .replace(QUERY, `?${REDACTED}`)
    .replace(LONG_TOKEN, (token) =>
      UUID.test(token) || token.includes('/') || token.includes('.') ? token : REDACTED,
    );
}

/** A deep copy of `value` with dropped keys gone and every string scrubbed. */
function scrubValue(value: unknown, key: string | undefined, depth: number): unknown {
  if (typeof value === 'string') return key && OWN_IDS.has(key) ? value : scrubText(value);
  if (depth > 12 || value === null || typeof value !== 'object') return value;
  if (key && OWN_IDS.has(key)) return value;
  // Frames are the code's own lines and places; local variables are never attached.
  if (key === 'frames' && Array.isArray(value)) {
    return value.map((frame: Record<string, unknown>) => {
      const { vars: _vars, ...rest } = frame;
      return rest;
    });
  }
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, undefined, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (DROPPED.has(k.toLowerCase())) continue;
    out[k] = scrubValue(v, k, depth + 1);
  }
  return out;
}

/**
 * An error event or transaction as it may leave: the `beforeSend` and `beforeSendTransaction`
 * of both SDKs. Breadcrumbs keep what happened (a click, a call and its status) without
 * console text, which may quote anything.
 */
export function scrubEvent<T extends object>(event: T): T {
  const scrubbed = scrubValue(event, undefined, 0) as T & {
    breadcrumbs?: { category?: string; message?: string }[];
  };
  if (Array.isArray(scrubbed.breadcrumbs)) {
    scrubbed.breadcrumbs = scrubbed.breadcrumbs
      .filter((b) => b.category !== 'console')
      .map((b) => (b.category?.startsWith('ui.') ? { ...b, message: undefined } : b));
  }
  return scrubbed;
}
