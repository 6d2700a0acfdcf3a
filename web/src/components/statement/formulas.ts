// KaTeX and its stylesheet (whose @font-face rules name the formula fonts, woff2 only): a chunk
// of its own, fetched only when a statement shown holds a formula (renderer.ts, use-renderer.ts).
import 'katex/dist/katex.min.css';
import katex from 'katex';
import { setFormulaRenderer } from '../../../../shared/statement-core.js';

setFormulaRenderer(katex.renderToString);
