import type { KatexOptions } from 'katex';
import MarkdownIt, { type StateBlock, type StateInline, type Token } from 'markdown-it';

/**
 * Question statements: Markdown with `$…$` / `$$…$$` LaTeX rendered by KaTeX. A statement is
 * user content shown to other people (and printed), so: no raw HTML, no scripts, KaTeX without
 * `trust` (no `\href`, `\url`, `\htmlClass`…), links only to http(s)/mailto, and images only
 * from Podium's own file service. The web app and the PDF test paper both render with this.
 *
 * KaTeX is not imported here: it is most of the renderer's weight, and a statement without a
 * formula does not need it. shared/statement.ts gives it at once (the server, the tests); the web
 * app fetches it only when a statement it shows holds a formula (web/src/components/statement).
 */

/** The only images a statement may show: files stored by Podium. */
export const STATEMENT_FILE_PREFIX = '/api/v1/resource-mgmt/files/';
const FILE_SRC_RE =
  /^\/api\/v1\/resource-mgmt\/files\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** The Markdown that shows a stored image. */
export const statementImage = (fileId: string, alt = '') =>
  `![${alt.replace(/[[\]\\]/g, '')}](${STATEMENT_FILE_PREFIX}${fileId})`;

export type RenderStatementOptions = {
  /**
   * Where the browser (or the PDF printer) gets a stored image: a blob or data URL fetched
   * with the user's credentials. Returning undefined drops the image. Default: the API path.
   */
  imageSrc?: (fileId: string) => string | undefined;
};

/**
 * Limits of what a statement (or an answer option) may hold, checked when a question is saved
 * (shared/schemas/questions.ts) and again before rendering, so that a text stored before them
 * is shown as plain text rather than crash the renderer (KaTeX recursion runs out of stack
 * around a few hundred levels in a browser) or cost seconds of CPU.
 */
/** Deepest nesting of `{…}`, `\left…\right` and `\begin…\end` in one formula. */
export const MAX_FORMULA_DEPTH = 20;
/** Most formula source characters in one text (statement or option), all formulas together. */
export const MAX_FORMULA_CHARS = 4000;
/** Longest text the renderer takes as Markdown at all (the statement's own limit). */
export const MAX_RENDERED_LENGTH = 20_000;

/** Macro definitions would let a short formula expand into any depth: they define nothing. */
const NO_DEFINITIONS = Object.fromEntries(
  [
    '\\def',
    '\\gdef',
    '\\edef',
    '\\xdef',
    '\\let',
    '\\futurelet',
    '\\global',
    '\\newcommand',
    '\\renewcommand',
    '\\providecommand',
  ].map((name) => [name, '\\relax']),
);

const KATEX_OPTIONS: KatexOptions = {
  throwOnError: false,
  trust: false,
  strict: 'ignore',
  // Bounds on macro expansion and sizes: a statement must not hang or blow up the page.
  maxExpand: 1000,
  maxSize: 50,
  macros: NO_DEFINITIONS,
};

/** KaTeX's `renderToString`, once whoever loads KaTeX gives it (setFormulaRenderer). */
export type FormulaRenderer = (tex: string, options: KatexOptions) => string;
let renderFormula: FormulaRenderer | undefined;

/** Gives the renderer KaTeX: texts with formulas render from then on. */
export function setFormulaRenderer(render: FormulaRenderer): void {
  renderFormula = render;
}

/** Whether KaTeX has been given (setFormulaRenderer). */
export const formulasReady = (): boolean => renderFormula !== undefined;

function formula(tex: string, displayMode: boolean): string {
  if (!renderFormula) throw new Error('statement: a formula was rendered before KaTeX was given');
  return renderFormula(tex, { ...KATEX_OPTIONS, displayMode });
}

const isSpace = (ch: string | undefined) => ch === undefined || /\s/.test(ch);

/** `$x$` (not `$ x$`, not `$5 and $6`) and `$$x$$` inside a paragraph. */
function mathInline(state: StateInline, silent: boolean): boolean {
  const { src, pos: start, posMax } = state;
  if (src[start] !== '$') return false;
  const isDisplay = src[start + 1] === '$';
  const open = isDisplay ? 2 : 1;
  if (!isDisplay && isSpace(src[start + open])) return false;
  let from = start + open;
  for (;;) {
    const at = src.indexOf(isDisplay ? '$$' : '$', from);
    if (at === -1 || at + open > posMax) return false;
    let slashes = 0;
    for (let k = at - 1; k >= start + open && src[k] === '\\'; k--) slashes += 1;
    const isClosing =
      slashes % 2 === 0 && (isDisplay || (!isSpace(src[at - 1]) && !/\d/.test(src[at + 1] ?? '')));
    if (!isClosing) {
      from = at + 1;
      continue;
    }
    const content = src.slice(start + open, at);
    if (!content.trim()) return false;
    if (!silent) {
      const token = state.push(isDisplay ? 'math_display' : 'math_inline', 'math', 0);
      token.content = content;
      token.markup = isDisplay ? '$$' : '$';
    }
    state.pos = at + open;
    return true;
  }
}

/** A block that starts with `$$` on its own line and ends at the next line ending in `$$`. */
function mathBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean) {
  // markdown-it keeps one entry per line in these arrays; 0 only for lines that do not exist.
  const at = (list: number[], line: number) => list[line] ?? 0;
  const lineText = (line: number) =>
    state.src.slice(at(state.bMarks, line) + at(state.tShift, line), at(state.eMarks, line));
  if (at(state.sCount, startLine) - state.blkIndent >= 4) return false;
  const first = lineText(startLine).trim();
  if (!first.startsWith('$$')) return false;
  const parts: string[] = [];
  let rest = first.slice(2);
  let line = startLine;
  let isClosed = rest.trimEnd().endsWith('$$');
  if (isClosed) rest = rest.trimEnd().slice(0, -2);
  parts.push(rest);
  while (!isClosed && line + 1 < endLine) {
    line += 1;
    if (at(state.sCount, line) < state.blkIndent) break;
    const text = lineText(line).trimEnd();
    if (text.endsWith('$$')) {
      parts.push(text.slice(0, -2));
      isClosed = true;
    } else parts.push(text);
  }
  if (!isClosed || !parts.join('').trim()) return false;
  if (silent) return true;
  const token = state.push('math_block', 'math', 0);
  token.block = true;
  token.content = parts.filter((p) => p.trim()).join('\n');
  token.map = [startLine, line + 1];
  state.line = line + 1;
  return true;
}

const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** Marks a stored image in cached HTML; raw HTML is escaped, so only our image rule writes it. */
const IMAGE_MARK = 'data-statement-file';
const PLACED_IMAGE = new RegExp(`<img ${IMAGE_MARK}="([0-9a-f-]{36})" `, 'g');
const MARKED_IMAGE = new RegExp(`<img ${IMAGE_MARK}="[0-9a-f-]{36}"[^>]*>`, 'g');

function createRenderer(): MarkdownIt {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: true });
  // Only web links and our own files; everything else stays plain text.
  md.validateLink = (url: string) =>
    /^(https?:|mailto:)/i.test(url.trim()) || FILE_SRC_RE.test(url);
  md.inline.ruler.before('escape', 'math_inline', mathInline);
  md.block.ruler.before('fence', 'math_block', mathBlock, {
    alt: ['paragraph', 'reference', 'blockquote', 'list'],
  });
  md.renderer.rules.math_inline = (tokens, idx) => formula(tokens[idx]?.content ?? '', false);
  md.renderer.rules.math_display = (tokens, idx) => formula(tokens[idx]?.content ?? '', true);
  md.renderer.rules.math_block = (tokens, idx) =>
    `<div class="statement-math">${formula(tokens[idx]?.content ?? '', true)}</div>\n`;
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx];
    const match = FILE_SRC_RE.exec(token?.attrGet('src') ?? '');
    if (!token || !match?.[1]) return '';
    const fileId = match[1].toLowerCase();
    const alt = self.renderInlineAsText(token.children ?? [], options, env);
    // The address is filled in per call (placeImages): the rendered HTML is cached without it.
    return `<img ${IMAGE_MARK}="${fileId}" alt="${escapeHtml(alt)}" class="statement-image">`;
  };
  const linkOpen = md.renderer.rules.link_open;
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    tokens[idx]?.attrSet('rel', 'noopener noreferrer nofollow');
    tokens[idx]?.attrSet('target', '_blank');
    return linkOpen
      ? linkOpen(tokens, idx, options, env, self)
      : self.renderToken(tokens, idx, options);
  };
  return md;
}

let renderer: MarkdownIt | undefined;
const getRenderer = () => {
  renderer ??= createRenderer();
  return renderer;
};

type MathToken = { type: string; content: string; children: MathToken[] | null };

/** The formulas of a text, as the renderer would find them (parsed only, nothing rendered). */
function formulasOf(markdown: string, inline: boolean): string[] {
  const md = getRenderer();
  const tokens = (inline ? md.parseInline(markdown, {}) : md.parse(markdown, {})) as MathToken[];
  const found: string[] = [];
  const walk = (list: MathToken[]) => {
    for (const token of list) {
      if (token.type.startsWith('math_')) found.push(token.content);
      if (token.children) walk(token.children);
    }
  };
  walk(tokens);
  return found;
}

/** Whether a text holds a formula (`$…$`, `$$…$$`) that KaTeX would render. */
export function hasFormulas(markdown: string, { inline = false }: { inline?: boolean } = {}) {
  return markdown.includes('$') && formulasOf(markdown, inline).length > 0;
}

/** The deepest nesting of groups in one formula's TeX source. */
export function formulaDepth(tex: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < tex.length; i += 1) {
    const ch = tex[i];
    if (ch === '\\') {
      let end = i + 1;
      while (end < tex.length && /[A-Za-z]/.test(tex[end] ?? '')) end += 1;
      const name = end === i + 1 ? '' : tex.slice(i + 1, end);
      if (name === 'left' || name === 'begin') depth += 1;
      else if (name === 'right' || name === 'end') depth -= 1;
      // `\{`, `\}` and other escaped characters are not groups.
      i = name ? end - 1 : i + 1;
    } else if (ch === '{') depth += 1;
    else if (ch === '}') depth -= 1;
    if (depth > deepest) deepest = depth;
  }
  return deepest;
}

export type StatementMathProblem = 'formula_too_deep' | 'formula_too_long';

/**
 * Why a text's formulas are beyond the limits (a field code), or undefined: nested deeper than
 * MAX_FORMULA_DEPTH, or more than MAX_FORMULA_CHARS of formula source in all.
 */
export function statementMathProblem(
  markdown: string,
  { inline = false }: { inline?: boolean } = {},
): StatementMathProblem | undefined {
  if (!markdown.includes('$')) return undefined;
  const formulas = formulasOf(markdown, inline);
  let chars = 0;
  for (const tex of formulas) {
    if (formulaDepth(tex) > MAX_FORMULA_DEPTH) return 'formula_too_deep';
    chars += tex.length;
    if (chars > MAX_FORMULA_CHARS) return 'formula_too_long';
  }
  return undefined;
}

/** The text as it was typed, escaped, line breaks kept: what a text beyond the limits shows. */
function plainText(markdown: string, inline: boolean): string {
  const text = escapeHtml(markdown.slice(0, MAX_RENDERED_LENGTH)).replace(/\r?\n/g, '<br>\n');
  return inline ? text : `<p class="statement-plain">${text}</p>\n`;
}

/**
 * Rendered texts by their content (the Map hashes the text; the text itself is the key, so two
 * texts never share an entry), least recently used first: a test paper or a player shows the
 * same statements again and again. Bounded by entries and by characters held.
 */
const CACHE_ENTRIES = 500;
const CACHE_CHARS = 8_000_000;
const cache = new Map<string, string>();
let cachedChars = 0;

function remember(key: string, html: string): void {
  if (key.length + html.length > CACHE_CHARS / 8) return;
  cache.set(key, html);
  cachedChars += key.length + html.length;
  while (cache.size > CACHE_ENTRIES || cachedChars > CACHE_CHARS) {
    const oldest = cache.keys().next();
    if (oldest.done) break;
    cachedChars -= oldest.value.length + (cache.get(oldest.value)?.length ?? 0);
    cache.delete(oldest.value);
  }
}

/** The cached HTML of a text (with image marks), rendering it once. */
function renderCached(markdown: string, inline: boolean): string {
  const key = `${inline ? 'i' : 'b'}${markdown}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  let html: string;
  if (markdown.length > MAX_RENDERED_LENGTH || statementMathProblem(markdown, { inline })) {
    html = plainText(markdown, inline);
  } else if (!renderFormula && hasFormulas(markdown, { inline })) {
    // Never cached as plain text: the caller fetches KaTeX first (hasFormulas) and renders again.
    throw new Error('statement: a text with formulas was rendered before KaTeX was given');
  } else {
    try {
      html = inline ? getRenderer().renderInline(markdown, {}) : getRenderer().render(markdown, {});
    } catch {
      // Whatever still breaks the renderer (a stack overflow deep in KaTeX) shows the text.
      html = plainText(markdown, inline);
    }
  }
  remember(key, html);
  return html;
}

/** Gives each stored image its address for this caller, or drops it. */
function placeImages(html: string, options: RenderStatementOptions): string {
  if (!html.includes(IMAGE_MARK)) return html;
  const srcOf = options.imageSrc ?? ((id: string) => `${STATEMENT_FILE_PREFIX}${id}`);
  return html.replace(MARKED_IMAGE, (tag) => {
    const id = new RegExp(`${IMAGE_MARK}="([0-9a-f-]{36})"`).exec(tag)?.[1] ?? '';
    const src = srcOf(id);
    return src ? tag.replace(PLACED_IMAGE, `<img src="${escapeHtml(src)}" `) : '';
  });
}

/** Safe HTML for a statement (Markdown + KaTeX); never contains script or event handlers. */
export function renderStatement(markdown: string, options: RenderStatementOptions = {}): string {
  return placeImages(renderCached(markdown, false), options);
}

/** Like renderStatement, without the enclosing paragraph: for answer options. */
export function renderStatementInline(
  markdown: string,
  options: RenderStatementOptions = {},
): string {
  return placeImages(renderCached(markdown, true), options);
}

/** The ids of the stored images a statement shows, in order, without repeats (parsed only). */
export function statementImageIds(markdown: string): string[] {
  const ids: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'image') {
        const id = FILE_SRC_RE.exec(token.attrGet('src') ?? '')?.[1];
        if (id) ids.push(id.toLowerCase());
      }
      if (token.children) walk(token.children);
    }
  };
  walk(getRenderer().parse(markdown, {}));
  return [...new Set(ids)];
}
