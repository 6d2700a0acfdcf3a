import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { GRADE_ABSOLVENT } from '../../../shared/constants.js';
import type { TestItem, TestPaper } from '../../../shared/schemas/tests.js';
import {
  renderStatement,
  renderStatementInline,
  statementImageIds,
} from '../../../shared/statement.js';

/**
 * The printed test paper: one self-contained HTML page (KaTeX's CSS and fonts inlined, images
 * as data URLs) that Chromium prints to PDF. The paper is Romanian, like the competitions.
 */

export type PaperInput = TestPaper & {
  /** file id → data URL of the images the paper shows (see {@link paperImageIds}). */
  images: ReadonlyMap<string, string>;
};

/** The stored images a paper shows: each item's own image and those its texts embed. */
export function paperImageIds(items: readonly TestItem[]): string[] {
  const ids = items.flatMap((item) => [
    ...(item.imageFileId ? [item.imageFileId] : []),
    ...statementImageIds(item.itemQ),
    ...item.itemAnswers.flatMap((answer) => statementImageIds(answer)),
  ]);
  return [...new Set(ids.map((id) => id.toLowerCase()))];
}

let katexCss: string | undefined;

/** KaTeX's stylesheet with its woff2 fonts as data URLs (the page has no network). */
function inlineKatexCss(): string {
  if (katexCss !== undefined) return katexCss;
  const require = createRequire(import.meta.url);
  const dist = path.dirname(require.resolve('katex/dist/katex.min.css'));
  const css = readFileSync(path.join(dist, 'katex.min.css'), 'utf8');
  katexCss = css.replace(/src:url\(fonts\/([\w-]+)\.woff2\)[^;}]*/g, (_, name: string) => {
    const font = readFileSync(path.join(dist, 'fonts', `${name}.woff2`)).toString('base64');
    return `src:url(data:font/woff2;base64,${font}) format("woff2")`;
  });
  return katexCss;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** 'Clasa 5, 6' (SPEC.md §3); 99 is 'Absolvent'. */
export const gradesTitle = (grades: readonly number[]) =>
  `Clasa ${grades.map((g) => (g === GRADE_ABSOLVENT ? 'Absolvent' : String(g))).join(', ')}`;

/** Romanian puts 'de' before a noun after whole numbers whose last two digits are 0 or ≥ 20. */
const takesDe = (n: number) => Number.isInteger(n) && n > 0 && (n % 100 === 0 || n % 100 >= 20);
const counted = (n: number, one: string, many: string) =>
  n === 1
    ? `1 ${one}`
    : `${n.toLocaleString('ro-RO', { maximumFractionDigits: 2 })} ${takesDe(n) ? 'de ' : ''}${many}`;
const points = (score: number) => counted(score, 'punct', 'puncte');
const minutes = (n: number) => counted(n, 'minut', 'minute');

const HINT = {
  single: 'Alegeți un singur răspuns.',
  multiple: 'Alegeți toate răspunsurile corecte.',
  numeric: 'Scrieți rezultatul numeric.',
  open: 'Scrieți rezolvarea completă.',
} as const;

function renderItem(item: TestItem, index: number, images: PaperInput['images']): string {
  const imageSrc = (id: string) => images.get(id);
  const statement = renderStatement(item.itemQ, { imageSrc });
  // A question imported from an image already shows it in its statement: print it once.
  const ownId = item.imageFileId?.toLowerCase();
  const inStatement = statementImageIds(item.itemQ).map((id) => id.toLowerCase());
  const ownImage = ownId && !inStatement.includes(ownId) ? imageSrc(ownId) : undefined;
  const letter = (i: number) => String.fromCharCode(65 + i);
  const body =
    item.itemType === 'single' || item.itemType === 'multiple'
      ? `<ol class="options">${item.itemAnswers
          .map(
            (answer, i) =>
              `<li><span class="box"></span><b>${letter(i)}.</b> ${renderStatementInline(answer, { imageSrc })}</li>`,
          )
          .join('')}</ol>`
      : item.itemType === 'numeric'
        ? '<p class="numeric">Răspuns: <span class="line"></span></p>'
        : '<div class="answer-space"></div>';
  return `<section class="item">
  <h2>Întrebarea ${index + 1} <span class="score">(${points(item.score)})</span></h2>
  <div class="statement">${statement}</div>
  ${ownImage ? `<img class="item-image" src="${escapeHtml(ownImage)}" alt="">` : ''}
  <p class="hint">${HINT[item.itemType]}</p>
  ${body}
</section>`;
}

const PAPER_CSS = `
body { font-family: 'DejaVu Serif', 'Liberation Serif', serif; font-size: 11.5pt; color: #000;
  line-height: 1.4; margin: 0; }
header { border-bottom: 2px solid #000; padding-bottom: 8px; margin-bottom: 14px; }
h1 { font-size: 17pt; margin: 0 0 4px; }
.sub { margin: 2px 0; font-size: 11pt; }
.meta { display: flex; flex-wrap: wrap; gap: 4px 18px; margin-top: 6px; font-weight: bold; }
.student { margin-top: 10px; display: flex; gap: 20px; }
.student span { flex: 1; border-bottom: 1px dotted #000; padding-bottom: 14px; }
.item { break-inside: avoid; margin: 0 0 14px; }
.item h2 { font-size: 12pt; margin: 0 0 4px; }
.score { font-weight: normal; }
.statement p { margin: 4px 0; }
.statement img, .item-image { display: block; max-width: 100%; max-height: 110mm; margin: 4px 0; }
.hint { font-style: italic; font-size: 10pt; margin: 4px 0; color: #333; }
.options { list-style: none; padding-left: 6mm; margin: 4px 0; }
.options li { margin: 3px 0; }
.box { display: inline-block; width: 3.2mm; height: 3.2mm; border: 1px solid #000;
  margin-right: 6px; vertical-align: -1px; }
.line { display: inline-block; width: 60mm; border-bottom: 1px solid #000; }
.answer-space { border: 1px solid #777; min-height: 55mm; margin-top: 4px; }
.katex { font-size: 1.1em; }
.rules { margin: 8px 0 0; font-size: 10pt; font-style: italic; }
`;

/** The whole paper as one HTML document. */
export function renderTestPaper(input: PaperInput): string {
  const title = `${input.examName} — ${input.testName}`;
  return `<!doctype html>
<html lang="ro"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>${inlineKatexCss()}</style><style>${PAPER_CSS}</style></head>
<body>
<header>
  <h1>${escapeHtml(input.examName)}</h1>
  <p class="sub">${escapeHtml(input.editionName)} · ${escapeHtml(input.phaseName)} · ${escapeHtml(input.testName)}</p>
  <div class="meta">
    <span>${escapeHtml(gradesTitle(input.grades))}</span>
    <span>${escapeHtml(input.subject)}</span>
    <span>Durata: ${minutes(input.duration)}</span>
    <span>Punctaj total: ${points(input.totalScore)}</span>
  </div>
  <div class="student"><span>Nume și prenume:</span><span>Școala:</span><span>Cod:</span></div>
  <p class="rules">Toate subiectele sunt obligatorii. Timp de lucru: ${minutes(input.duration)}.</p>
</header>
<main>
${input.items.map((item, i) => renderItem(item, i, input.images)).join('\n')}
</main>
</body></html>`;
}
