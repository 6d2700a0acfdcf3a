// Seeds a realistic people table for the people-list benchmark and the query-plan script:
// Romanian names with diacritics, every county, grades 0–12 and 99, coordinating teachers, and
// one competition whose edition enrols a tenth of the students.

import type { Db } from '../server/db/client.js';
import { editionStudents, editions, exams, examTeachers, users } from '../server/db/schema.js';
import { uuidv7 } from '../server/lib/ids.js';
import { normalizeName } from '../server/lib/text.js';
import { COUNTIES, GRADE_ABSOLVENT } from '../shared/constants.js';
import { rng } from './harness/util.js';

// Family names are a root and a suffix (Pop-escu, Mureș-an, Ștefăn-escu, …): about 1,300
// distinct names, so trigrams are as spread out as in a real register, not 50 names repeated.
// biome-ignore format: a list of names reads better packed
const ROOTS = [
  'Pop', 'Ion', 'Stan', 'Dumitr', 'Georg', 'Rad', 'Mihail', 'Vasil', 'Constantin', 'Marin',
  'Nicol', 'Petr', 'Tom', 'Flore', 'Dobr', 'Barb', 'Nistor', 'En', 'Din', 'Stoic', 'Diacon',
  'Mocan', 'Opr', 'Voic', 'Lung', 'Munt', 'Moldov', 'Mureș', 'Șerb', 'Ștefăn', 'Țăr', 'Băl',
  'Căpr', 'Sârb', 'Iord', 'Rus', 'Crist', 'Neag', 'Vădan', 'Zamfir', 'Urs', 'Țurc', 'Băd',
  'Olt', 'Pîrv', 'Man', 'Lazăr', 'Anghel', 'Pred', 'Mihăil', 'Ardel', 'Bucur', 'Cozm', 'Dragomir',
  'Enach', 'Gavril', 'Grigor', 'Iacob', 'Ili', 'Lup', 'Mate', 'Morar', 'Negr', 'Pavel', 'Roman',
  'Sand', 'Tănas', 'Tudos', 'Vlad', 'Zahari', 'Bogd', 'Chiriț', 'Cojocar', 'Dănil', 'Filip',
  'Gheorghiț', 'Husar', 'Irim', 'Jitar', 'Mârz', 'Nedelc', 'Oanc', 'Păun', 'Răduț', 'Simion',
  'Tătar', 'Udr', 'Vintil', 'Aldea', 'Bârsan',
];
const SUFFIXES = [
  'escu',
  'eanu',
  'ea',
  'u',
  'a',
  'ache',
  'aru',
  'ilă',
  'uț',
  'an',
  'oiu',
  'ici',
  'cu',
  '',
];
// biome-ignore format: a list of names reads better packed
const GIVEN = [
  'Andrei', 'Alexandru', 'Ștefan', 'Mihai', 'Ioan', 'Gabriel', 'Matei', 'Luca', 'David', 'Tudor',
  'Răzvan', 'Bogdan', 'Cătălin', 'Ionuț', 'Radu', 'Vlad', 'Darius', 'Sebastian', 'Cristian', 'Horia',
  'Adrian', 'Florin', 'Sorin', 'Marian', 'Costin', 'Eduard', 'Octavian', 'Petru', 'Rareș', 'Șerban',
  'Victor', 'Emil', 'Dragoș', 'Iustin', 'Liviu', 'Nicolae', 'Paul', 'Teodor', 'Valentin', 'Aurel',
  'Maria', 'Elena', 'Ioana', 'Andreea', 'Ana', 'Alexandra', 'Ștefania', 'Bianca', 'Teodora', 'Irina',
  'Mădălina', 'Alina', 'Iulia', 'Diana', 'Sorina', 'Cătălina', 'Antonia', 'Sânziana', 'Ilinca', 'Oana',
  'Roxana', 'Simona', 'Larisa', 'Denisa', 'Raluca', 'Gabriela', 'Carmen', 'Daria', 'Ecaterina', 'Smaranda',
];
const CITY_OF: Record<string, string> = { Cluj: 'Cluj-Napoca', Iași: 'Iași', Timiș: 'Timișoara' };
const GRADES = [4, 5, 6, 7, 8, 9, 10, 11, 12, 0, GRADE_ABSOLVENT];

const pick = <T>(list: readonly T[], r: (n: number) => number): T => list[r(list.length)] as T;
const CHUNK = 2500;

export type SeededPeople = { teacherIds: string[]; examId: string; editionId: string };

/**
 * Inserts `students` students (multi-row INSERTs of 2,500 rows), 500 teachers who coordinate
 * them, and one competition with one edition enrolling every tenth student.
 */
export async function seedPeople(db: Db, students = 50_000): Promise<SeededPeople> {
  const r = rng(42);
  const teacherRows = Array.from({ length: 500 }, (_, i) => {
    const givenName = pick(GIVEN, r);
    const familyName = pick(ROOTS, r) + pick(SUFFIXES, r);
    const county = pick(COUNTIES, r);
    return {
      id: uuidv7(),
      email: `profesor${i}@bench.podium.ro`,
      type: 'teacher' as const,
      state: 'active' as const,
      registered: true,
      givenName,
      familyName,
      givenNameNormalized: normalizeName(givenName),
      familyNameNormalized: normalizeName(familyName),
      county,
      country: 'România',
      city: CITY_OF[county] ?? county,
      school: `Colegiul Național nr. ${1 + r(40)}`,
      discipline: i % 3 === 0 ? 'Informatică' : 'Matematică',
      teacherCode: `BENCH-${i}`,
    };
  });
  await db.insert(users).values(teacherRows);
  const teacherIds = teacherRows.map((t) => t.id);

  const studentIds: string[] = [];
  for (let start = 0; start < students; start += CHUNK) {
    const rows = Array.from({ length: Math.min(CHUNK, students - start) }, (_, k) => {
      const i = start + k;
      const givenName = pick(GIVEN, r);
      const familyName = pick(ROOTS, r) + pick(SUFFIXES, r);
      const county = pick(COUNTIES, r);
      return {
        id: uuidv7(),
        email: `elev${i}@bench.podium.ro`,
        type: 'student' as const,
        state: r(10) === 0 ? ('inactive' as const) : ('active' as const),
        registered: true,
        givenName,
        familyName,
        givenNameNormalized: normalizeName(givenName),
        familyNameNormalized: normalizeName(familyName),
        county,
        country: 'România',
        city: CITY_OF[county] ?? county,
        school: `Școala Gimnazială nr. ${1 + r(60)}`,
        grade: pick(GRADES, r),
        dateOfBirth: `20${10 + r(6)}-0${1 + r(9)}-1${r(9)}`,
        locale: 'ro',
        teacherRef: pick(teacherIds, r),
      };
    });
    await db.insert(users).values(rows);
    studentIds.push(...rows.map((s) => s.id));
  }

  const examId = uuidv7();
  await db.insert(exams).values({
    id: examId,
    name: 'Olimpiada de Matematică',
    nameNormalized: 'olimpiada de matematica',
    subject: 'math',
  });
  const editionId = uuidv7();
  await db.insert(editions).values({ id: editionId, examId, name: '2025' });
  const [staff] = teacherIds;
  if (staff) await db.insert(examTeachers).values({ examId, teacherId: staff, role: 'staff' });
  const enrolled = studentIds.filter((_, i) => i % 10 === 0);
  for (let start = 0; start < enrolled.length; start += CHUNK) {
    await db
      .insert(editionStudents)
      .values(enrolled.slice(start, start + CHUNK).map((studentId) => ({ editionId, studentId })));
  }
  return { teacherIds, examId, editionId };
}
