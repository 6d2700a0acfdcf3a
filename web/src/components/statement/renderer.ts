// The statement renderer (Markdown, without KaTeX): a chunk of its own, fetched when the first
// statement shows (use-renderer.ts), so sign-in, My tests and the player's first screens never
// load it. KaTeX, its stylesheet and fonts come only for a statement with a formula (formulas.ts).
export {
  formulasReady,
  hasFormulas,
  renderStatement,
  statementImageIds,
} from '../../../../shared/statement-core.js';

let formulas: Promise<void> | undefined;

/** Fetches KaTeX once and gives it to the renderer; a failed fetch is tried again on the next call. */
export function loadFormulas(): Promise<void> {
  formulas ??= import('./formulas.js').then(
    () => undefined,
    (err: unknown) => {
      formulas = undefined;
      throw err;
    },
  );
  return formulas;
}
