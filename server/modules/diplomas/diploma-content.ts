import { randomBytes } from 'node:crypto';
import { diplomaVerifyPath } from '../../../shared/schemas/diplomas.js';
import type { DiplomaContent } from './diploma-pdf.js';
import type { DiplomaFacts, EntryRow, IssuedRow, PersonRow } from './diplomas.repo.js';

/** The names a phase's diplomas print: competition, edition, phase. */
export type PhaseNames = {
  phaseId: string;
  examName: string;
  editionName: string;
  phaseName: string;
};

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A new verification code: 60 random bits as 12 characters of Crockford's base32. */
export function newDiplomaCode(): string {
  const bytes = randomBytes(8);
  let value = bytes.readBigUInt64BE() >> 4n;
  let code = '';
  for (let i = 0; i < 12; i += 1) {
    code = (CROCKFORD[Number(value & 31n)] ?? '0') + code;
    value >>= 5n;
  }
  return code;
}

/**
 * A code as someone typed it, made canonical: dashes and spaces dropped, upper case, and the
 * letters Crockford's alphabet reads as digits (O as 0, I and L as 1). undefined if it cannot be
 * a code.
 */
export function canonicalCode(typed: string): string | undefined {
  const code = typed.replace(/[\s-]/g, '').toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1');
  return /^[0-9A-HJKMNP-TV-Z]{12}$/.test(code) ? code : undefined;
}

/** The code as printed: XXXX-XXXX-XXXX. */
export const printedCode = (code: string) =>
  `${code.slice(0, 4)}-${code.slice(4, 8)}-${code.slice(8, 12)}`;

/** A name as documents print it: given name then family name. */
export function printedName(p: { givenName: string | null; familyName: string | null }): string {
  return [p.givenName, p.familyName].filter((v) => v?.trim()).join(' ') || '—';
}

export function studentFacts(names: PhaseNames, entry: EntryRow): DiplomaFacts {
  return {
    phaseId: names.phaseId,
    userId: entry.studentId,
    kind: 'student',
    name: printedName(entry),
    examName: names.examName,
    editionName: names.editionName,
    phaseName: names.phaseName,
    grade: entry.grade,
    school: entry.school?.trim() || null,
    prize: entry.prize,
    studentCount: null,
  };
}

export function teacherFacts(
  names: PhaseNames,
  teacher: PersonRow,
  students: readonly EntryRow[],
): DiplomaFacts {
  return {
    phaseId: names.phaseId,
    userId: teacher.id,
    kind: 'teacher',
    name: printedName(teacher),
    examName: names.examName,
    editionName: names.editionName,
    phaseName: names.phaseName,
    grade: null,
    school: null,
    prize: null,
    studentCount: students.length,
  };
}

/** What the PDF prints for an issued diploma (a teacher's lists `students`). */
export function contentOf(
  issued: IssuedRow,
  origin: string,
  students: readonly EntryRow[] = [],
): DiplomaContent {
  const code = printedCode(issued.code);
  return {
    kind: issued.kind,
    code,
    verifyUrl: `${origin}${diplomaVerifyPath(code)}`,
    name: issued.name,
    examName: issued.examName,
    editionName: issued.editionName,
    phaseName: issued.phaseName,
    grade: issued.grade,
    school: issued.school,
    prize: issued.prize,
    students:
      issued.kind === 'teacher'
        ? students.map((s) => ({ name: printedName(s), grade: s.grade, prize: s.prize }))
        : [],
    issuedAt: issued.issuedAt,
  };
}

/** A file name without path separators or control characters, diacritics kept. */
export function safeFileName(text: string): string {
  const cleaned = text
    .normalize('NFC')
    .replace(/[\p{Cc}/\\:*?"<>|]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80);
  return cleaned || 'diploma';
}

/** A slug for the ZIP's name: "Etapa județeană" → "etapa-judeteana". */
export function slug(text: string): string {
  const plain = text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return plain || 'etapa';
}

/** A file of the ZIP: the person and the code. */
export const entryFileName = (name: string, code: string) =>
  `${safeFileName(name)} - ${printedCode(code)}.pdf`;
