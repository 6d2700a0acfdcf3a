/**
 * LoopBack `where` building blocks (DESIGN.md "Lists"): the server parses exactly this JSON,
 * so what a screen builds here is what the list endpoint and its `/count` twin receive.
 */
export type Where = Record<string, unknown>;

/** Order as the API spells it: `'familyName ASC'`. */
export type SortDirection = 'asc' | 'desc';
export type SortOrder = { field: string; direction: SortDirection };

export const orderParam = (order: SortOrder) =>
  `${order.field} ${order.direction === 'asc' ? 'ASC' : 'DESC'}`;

/** Joins conditions with `and`, dropping empty ones; undefined when nothing is left. */
export function andWhere(...parts: (Where | undefined | null | false)[]): Where | undefined {
  const kept = parts.filter((p): p is Where => !!p && Object.keys(p).length > 0);
  if (kept.length === 0) return undefined;
  return kept.length === 1 ? kept[0] : { and: kept };
}

/**
 * Makes user text literal inside a `like`/`ilike` pattern: `%` and `_` are wildcards and `\`
 * is the escape character on the server (PostgreSQL), so all three are escaped.
 */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Diacritics off, so "Ștefan" and "stefan" search alike (the server matches folded names). */
export const foldDiacritics = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '');

/** `{field: {ilike: '%text%'}}`, or undefined for blank text. */
export function containsWhere(field: string, text: string): Where | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  return { [field]: { ilike: `%${escapeLike(trimmed)}%` } };
}

/**
 * The name search of SPEC.md §9: case- and diacritic-insensitive partial match on any of the
 * given fields (family or given name by default), as an `or`.
 */
export function nameSearchWhere(
  text: string,
  fields: readonly string[] = ['familyName', 'givenName'],
): Where | undefined {
  const folded = foldDiacritics(text.trim());
  if (!folded) return undefined;
  const pattern = `%${escapeLike(folded)}%`;
  return { or: fields.map((f) => ({ [f]: { ilike: pattern } })) };
}

/** `{field: value}` unless the value means "all" (undefined, null or ''). */
export function equalsWhere(field: string, value: unknown): Where | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return { [field]: value };
}
