import katex, { type KatexOptions } from 'katex';
import MarkdownIt, { type StateBlock, type StateInline } from 'markdown-it';

/**
 * Question statements: Markdown with `$…$` / `$$…$$` LaTeX rendered by KaTeX. A statement is
 * user content shown to other people (and printed), so: no raw HTML, no scripts, KaTeX without
 * `trust` (no `\href`, `\url`, `\htmlClass`…), links only to http(s)/mailto, and images only
 * from Podium's own file service. The web app and the PDF test paper both render with this.
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

const KATEX_OPTIONS: KatexOptions = {
  throwOnError: false,
  trust: false,
  strict: 'ignore',
  // Bounds on macro expansion and sizes: a statement must not hang or blow up the page.
  maxExpand: 1000,
  maxSize: 50,
};

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

type Env = { imageSrc?: RenderStatementOptions['imageSrc']; imageIds?: string[] };

function createRenderer(): MarkdownIt {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: true });
  // Only web links and our own files; everything else stays plain text.
  md.validateLink = (url: string) =>
    /^(https?:|mailto:)/i.test(url.trim()) || FILE_SRC_RE.test(url);
  md.inline.ruler.before('escape', 'math_inline', mathInline);
  md.block.ruler.before('fence', 'math_block', mathBlock, {
    alt: ['paragraph', 'reference', 'blockquote', 'list'],
  });
  md.renderer.rules.math_inline = (tokens, idx) =>
    katex.renderToString(tokens[idx]?.content ?? '', { ...KATEX_OPTIONS, displayMode: false });
  md.renderer.rules.math_display = (tokens, idx) =>
    katex.renderToString(tokens[idx]?.content ?? '', { ...KATEX_OPTIONS, displayMode: true });
  md.renderer.rules.math_block = (tokens, idx) =>
    `<div class="statement-math">${katex.renderToString(tokens[idx]?.content ?? '', {
      ...KATEX_OPTIONS,
      displayMode: true,
    })}</div>\n`;
  md.renderer.rules.image = (tokens, idx, options, env: Env, self) => {
    const token = tokens[idx];
    const match = FILE_SRC_RE.exec(token?.attrGet('src') ?? '');
    if (!token || !match?.[1]) return '';
    const fileId = match[1].toLowerCase();
    env.imageIds?.push(fileId);
    const src = env.imageSrc ? env.imageSrc(fileId) : `${STATEMENT_FILE_PREFIX}${fileId}`;
    if (!src) return '';
    const alt = self.renderInlineAsText(token.children ?? [], options, env);
    return `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}" class="statement-image">`;
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

/** Safe HTML for a statement (Markdown + KaTeX); never contains script or event handlers. */
export function renderStatement(markdown: string, options: RenderStatementOptions = {}): string {
  const env: Env = { imageSrc: options.imageSrc };
  return getRenderer().render(markdown, env);
}

/** Like renderStatement, without the enclosing paragraph: for answer options. */
export function renderStatementInline(
  markdown: string,
  options: RenderStatementOptions = {},
): string {
  const env: Env = { imageSrc: options.imageSrc };
  return getRenderer().renderInline(markdown, env);
}

/** The ids of the stored images a statement shows, in order, without repeats. */
export function statementImageIds(markdown: string): string[] {
  const env: Env = { imageIds: [] };
  getRenderer().render(markdown, env);
  return [...new Set(env.imageIds)];
}
