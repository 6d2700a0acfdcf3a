/**
 * What the question list accepts beyond the shared filter compiler (server/lib/filter), as
 * SPEC.md's client sends it; the result goes on to `parseFilter`/`parseWhere` unchanged.
 */

/**
 * Adapts a client's `where` to the filter compiler: a cleared grade filter (`itemGrade: ''`
 * or null) means "any grade" (SPEC.md §5). LoopBack's `{like, options: 'i'}` is understood by
 * the compiler itself, on every list.
 */
function adaptWhere(where: unknown): unknown {
  if (Array.isArray(where)) return where.map(adaptWhere);
  if (typeof where !== 'object' || where === null) return where;
  const entries: [string, unknown][] = [];
  for (const [key, value] of Object.entries(where)) {
    if (key === 'itemGrade' && (value === '' || value === null)) continue;
    entries.push([key, adaptWhere(value)]);
  }
  return Object.fromEntries(entries);
}

/** JSON text → object with the where adapted; bad JSON goes on to the filter's own checks. */
export function preparse(raw: string | undefined, key: 'where' | 'filter'): unknown {
  if (raw === undefined || raw === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return raw;
  }
  if (key === 'where') return adaptWhere(value);
  if (typeof value === 'object' && value !== null && 'where' in value) {
    return { ...value, where: adaptWhere((value as { where: unknown }).where) };
  }
  return value;
}
