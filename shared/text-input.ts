/**
 * What text Podium takes in, decided once for the server's edge and the forms alike.
 *
 * - Any text: no NUL (PostgreSQL cannot store it in text or jsonb) and no unpaired UTF-16
 *   surrogate (not a character at all: it has no UTF-8 form and jsonb refuses its escape).
 * - Single-line text (names, school, city, titles, e-mail): also no control characters and no
 *   bidirectional controls, which make a text show as something else — `invoice\u202Efdp.exe`
 *   reads as "invoiceexe.pdf".
 *
 * File names are not refused for the second rule: they are cleaned where they are stored and
 * written back (`stripLayoutControls`). Written without lookbehind and without the `u` flag,
 * so every browser a school lab runs can use it.
 */

/** An unpaired high surrogate, or a low one at the start or after a non-high code unit. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const ANY_SURROGATE = /[\uD800-\uDFFF]/;

/**
 * C0 and C1 controls, DEL, the bidirectional marks, embeddings, overrides and isolates
 * (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and the line and paragraph separators.
 */
const LAYOUT_CONTROLS_SOURCE =
  '[\\u0000-\\u001F\\u007F-\\u009F\\u061C\\u200E\\u200F\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069]';
const LAYOUT_CONTROL = new RegExp(LAYOUT_CONTROLS_SOURCE);
const LAYOUT_CONTROLS = new RegExp(LAYOUT_CONTROLS_SOURCE, 'g');

/** Whether PostgreSQL can store the text as it is: no NUL, no unpaired surrogate. */
export function isStorableText(text: string): boolean {
  if (text.includes('\u0000')) return false;
  // Most text has no surrogate at all; the exact check runs only when one is there.
  return !ANY_SURROGATE.test(text) || !LONE_SURROGATE.test(text);
}

/** Whether the text may fill a single-line field: storable, no control or bidi character. */
export function isSingleLineText(text: string): boolean {
  return !LAYOUT_CONTROL.test(text) && isStorableText(text);
}

/** The text without control and bidirectional characters (and without lone surrogates). */
export function stripLayoutControls(text: string): string {
  const cleaned = text.replace(LAYOUT_CONTROLS, '');
  if (!ANY_SURROGATE.test(cleaned)) return cleaned;
  return cleaned.replace(/[\uD800-\uDFFF]+/g, (run) => pairedSurrogates(run));
}

/** A run of surrogates with the unpaired ones dropped. */
function pairedSurrogates(run: string): string {
  let kept = '';
  for (let i = 0; i < run.length; i += 1) {
    const high = run.charCodeAt(i);
    const low = run.charCodeAt(i + 1);
    if (high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
      kept += run.slice(i, i + 2);
      i += 1;
    }
  }
  return kept;
}

/** An e-mail address, loosely: something, `@`, something with a dot (the forms and the server). */
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
