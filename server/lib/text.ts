/** Lower-case, diacritics removed: the form names are searched and sorted by. */
export function normalizeName(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return value
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}
