import { useEffect, useMemo, useState } from 'react';

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

/** The renderer, ready for `markdown`: with KaTeX fetched first when the text holds a formula. */
async function loadRendererFor(markdown: string): Promise<StatementRenderer> {
  const renderer = await loadStatementRenderer();
  if (!renderer.formulasReady() && renderer.hasFormulas(markdown)) await renderer.loadFormulas();
  return renderer;
}

/** The loaded renderer if it can render `markdown` now, else undefined. */
function readyFor(markdown: string): StatementRenderer | undefined {
  if (!loaded) return undefined;
  return loaded.formulasReady() || !loaded.hasFormulas(markdown) ? loaded : undefined;
}

const RETRY_MS = 3000;

/**
 * The statement renderer (shared/statement-core.ts) once it can render `markdown` — KaTeX
 * included when the text holds a formula — or undefined while it is fetched: a statement shows
 * as soon as it can, trying again every few seconds if a fetch fails.
 */
export function useStatementRenderer(markdown: string): StatementRenderer | undefined {
  const [arrived, setArrived] = useState(0);
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `arrived` re-reads what was fetched
  const renderer = useMemo(() => readyFor(markdown), [markdown, arrived]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` restarts a failed fetch
  useEffect(() => {
    if (renderer) return;
    let live = true;
    let retry: ReturnType<typeof setTimeout> | undefined;
    loadRendererFor(markdown).then(
      () => live && setArrived((n) => n + 1),
      () => {
        if (live) retry = setTimeout(() => setAttempt((n) => n + 1), RETRY_MS);
      },
    );
    return () => {
      live = false;
      clearTimeout(retry);
    };
  }, [renderer, markdown, attempt]);
  return renderer;
}
