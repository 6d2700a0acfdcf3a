// The statement renderer with KaTeX and its stylesheet (whose @font-face rules name the formula
// fonts, woff2 only): a chunk of its own, fetched when the first statement shows
// (use-renderer.ts), so sign-in, My tests and the player's first screens never load it.
import 'katex/dist/katex.min.css';

export { renderStatement, statementImageIds } from '../../../../shared/statement.js';
