/**
 * Error tracing in the browser (SPEC.md §9), on only when the server set SENTRY_DSN: the page
 * then carries a `podium-tracing` meta element (server/lib/web-app.ts). This file is all the
 * first load holds; the SDK (./sdk.ts) is a separate chunk fetched only when that element is
 * there, so a student's first load does not grow and a school without tracing never fetches it.
 */
type Sdk = typeof import('./sdk.js');

let loading: Promise<Sdk | undefined> | undefined;

/** Starts the SDK if the page says where to send; safe to call more than once. */
export function startTracing(): void {
  if (loading) return;
  const meta = document.querySelector<HTMLMetaElement>('meta[name="podium-tracing"]');
  if (!meta?.content) return;
  loading = import('./sdk.js')
    .then((sdk) => {
      sdk.start(JSON.parse(meta.content) as { dsn: string; environment?: string });
      return sdk;
    })
    // Tracing that cannot start must never stop the app.
    .catch(() => undefined);
}

/** Reports an error the app caught itself (the top-level fallback); nothing while off. */
export function reportError(error: unknown): void {
  void loading?.then((sdk) => sdk?.capture(error));
}
