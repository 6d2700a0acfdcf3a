import { useEffect, useState } from 'react';

export type StatementRenderer = typeof import('./renderer.js');

let loaded: StatementRenderer | undefined;
let loading: Promise<StatementRenderer> | undefined;

/** Fetches the renderer once; a failed fetch (network cut) is tried again on the next call. */
export function loadStatementRenderer(): Promise<StatementRenderer> {
  loading ??= import('./renderer.js').then(
    (m) => {
      loaded = m;
      return m;
    },
    (err: unknown) => {
      loading = undefined;
      throw err;
    },
  );
  return loading;
}

const RETRY_MS = 3000;

/**
 * The statement renderer (shared/statement.ts with KaTeX), or undefined while it is fetched:
 * a statement shows as soon as it is there, trying again every few seconds if the fetch fails.
 */
export function useStatementRenderer(): StatementRenderer | undefined {
  const [renderer, setRenderer] = useState(loaded);
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` restarts a failed fetch
  useEffect(() => {
    if (renderer) return;
    let live = true;
    let retry: ReturnType<typeof setTimeout> | undefined;
    loadStatementRenderer().then(
      (m) => live && setRenderer(() => m),
      () => {
        if (live) retry = setTimeout(() => setAttempt((n) => n + 1), RETRY_MS);
      },
    );
    return () => {
      live = false;
      clearTimeout(retry);
    };
  }, [renderer, attempt]);
  return renderer;
}
