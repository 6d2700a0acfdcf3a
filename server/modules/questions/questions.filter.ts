/**
 * What the question list accepts beyond the shared filter compiler (server/lib/filter), as
 * SPEC.md's client sends it; the result goes on to `parseFilter`/`parseWhere` unchanged.
 */

const CASELESS: Record<string, string> = { like: 'ilike', nlike: 'nilike' };
const STRING_FILTERS = new Set(['itemCategory', 'itemDiscipline', 'itemQ']);

/**
 * Adapts a client's `where` to the filter compiler: a cleared grade filter (`itemGrade: ''`
 * or null) means "any grade" (SPEC.md §5), and LoopBack's `{like, options: 'i'}` on a text
 * field is the case-insensitive `ilike`.
 */
function adaptWhere(where: unknown): unknown {
  if (Array.isArray(where)) return where.map(adaptWhere);
  if (typeof where !== 'object' || where === null) return where;
  const entries: [string, unknown][] = [];
  for (const [key, value] of Object.entries(where)) {
    if (key === 'itemGrade' && (value === '' || value === null)) continue;
    if (STRING_FILTERS.has(key) && typeof value === 'object' && value !== null) {
      const { options, ...ops } = value as Record<string, unknown>;
      if (typeof options === 'string') {
        const isCaseless = options.includes('i');
        const renamed = Object.entries(ops).map(([op, arg]) => [
          isCaseless && Object.hasOwn(CASELESS, op) ? CASELESS[op] : op,
          arg,
        ]);
        entries.push([key, Object.fromEntries(renamed)]);
        continue;
      }
    }
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
