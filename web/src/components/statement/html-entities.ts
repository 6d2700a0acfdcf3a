// What markdown-it takes from the `entities` package, for the web app only (web/vite.config.ts
// puts it in place of `entities` for markdown-it): the browser's own HTML parser decodes named
// character references from the same table (the HTML standard's), so the 12 kB of that table
// need not come with every student's first load. The server and the tests keep `entities`.
// e2e/statement-entities.e2e.ts holds both equal over every name of the table.

let area: HTMLTextAreaElement | undefined;

/**
 * `text` with its character references decoded, as the browser reads them in text: a textarea's
 * content is text only (RCDATA), so nothing in it is parsed as markup, run or fetched.
 */
export function decodeHTML(text: string): string {
  if (!text.includes('&')) return text;
  area ??= document.createElement('textarea');
  area.innerHTML = text;
  return area.value;
}

/**
 * One named reference (`&name;`, markdown-it's only use): decoded only if the whole name is one,
 * never a shorter legacy name followed by other letters (`&notit;` stays as it is, as
 * `entities`' strict decoding leaves it).
 */
export function decodeHTMLStrict(text: string): string {
  const decoded = decodeHTML(text);
  if (text === '&semi;') return decoded;
  return decoded.endsWith(';') ? text : decoded;
}
