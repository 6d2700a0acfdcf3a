import { stripLayoutControls } from '../../../shared/text-input.js';

/** Longest file name kept, in characters. */
export const MAX_FILE_NAME_LENGTH = 200;

/**
 * A client's file name as Podium keeps and shows it: the last path segment only, without
 * control, bidirectional or other invisible format characters (`invoice\u202Efdp.exe` becomes
 * `invoicefdp.exe`, which is what it is), at most 200 characters; `fallback` when nothing is left.
 * Used where a name is stored and again wherever one is written back (downloads, zip entries,
 * the API), so names stored before this rule are shown clean too.
 */
export function cleanFileName(name: string, fallback: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  const visible = stripLayoutControls(last)
    .replace(/\p{Cf}/gu, '')
    .trim();
  const cleaned = Array.from(visible).slice(0, MAX_FILE_NAME_LENGTH).join('').trim();
  return cleaned && cleaned !== '.' && cleaned !== '..' ? cleaned : fallback;
}
