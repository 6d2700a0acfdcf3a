/**
 * An edition's name as it reads after the word "ediția" / "edition" in a sentence: organisers
 * often name editions "Ediția 2026–2027", which would print "ediția Ediția 2026–2027".
 */
export function editionAfterWord(name: string): string {
  return name.replace(/^\s*(edi[țţt]ia|edition)\s+/iu, '').trim() || name;
}
