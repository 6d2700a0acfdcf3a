import katex from 'katex';
import { setFormulaRenderer } from './statement-core.js';

/**
 * The statement renderer with KaTeX given at once: what the server (the PDF test paper) and the
 * tests use. The web app imports statement-core.ts and fetches KaTeX only for a formula.
 */
setFormulaRenderer(katex.renderToString);

export * from './statement-core.js';
