// `npm run demo`: loads demonstration people (an admin, teachers, students) into the
// configured database, using the same factories as the tests, and two demo competitions.
// Safe to run twice.
import path from 'node:path';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { makeEdition, makeEnrolment, makeExam, makePhase, makeUser } from '../db/factories.js';
import { migrate } from '../db/migrate.js';
import { exams } from '../db/schema.js';
import { usersService } from '../modules/users/index.js';

const PASSWORD = 'podium-demo-2026';

const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  pgliteDir: path.join(config.dataDir, 'pgdata'),
  // An operator's tool, not a request: its statements have no time limit.
  statementTimeoutMs: 0,
});
await migrate(database);
const users = usersService({ db: database.db });

type Seed = Parameters<typeof makeUser>[1] & { email: string };
const seeds: Seed[] = [
  { email: 'admin@demo.podium.ro', type: 'admin', givenName: 'Adina', familyName: 'Administrator' },
  {
    email: 'prof.ionescu@demo.podium.ro',
    type: 'teacher',
    givenName: 'Elena',
    familyName: 'Ionescu',
    county: 'Cluj',
    teacherCode: 'CJ-IONESCU',
  },
  {
    email: 'prof.popa@demo.podium.ro',
    type: 'teacher',
    givenName: 'Radu',
    familyName: 'Popa',
    county: 'Iași',
    city: 'Iași',
    teacherCode: 'IS-POPA',
    discipline: 'Informatică',
  },
  {
    email: 'prof.nou@demo.podium.ro',
    type: 'teacher',
    givenName: 'Dan',
    familyName: 'Stan',
    state: 'inactive',
    teacherCode: 'B-STAN',
    county: 'București',
    city: 'București',
  },
];
const students: [string, string, string, number][] = [
  ['Andrei', 'Mureșan', 'CJ-IONESCU', 5],
  ['Ioana', 'Țurcanu', 'CJ-IONESCU', 6],
  ['Ștefan', 'Bălan', 'CJ-IONESCU', 7],
  ['Maria', 'Dumitrescu', 'IS-POPA', 8],
  ['Bianca', 'Oprea', 'IS-POPA', 11],
  ['Mihai', 'Șerban', 'IS-POPA', 12],
];

let created = 0;
const ids = new Map<string, string>();
for (const seed of seeds) {
  const existing = await users.accountByEmail(seed.email);
  const row = existing ?? (await makeUser(database.db, { ...seed, password: PASSWORD }));
  if (!existing) created++;
  if (seed.teacherCode) ids.set(seed.teacherCode, row.id);
}
for (const [i, [givenName, familyName, code, grade]] of students.entries()) {
  const email = `elev${i + 1}@demo.podium.ro`;
  if (await users.accountByEmail(email)) continue;
  await makeUser(database.db, {
    email,
    givenName,
    familyName,
    grade,
    teacherRef: ids.get(code) ?? null,
    state: i === 2 ? 'inactive' : 'active',
    password: PASSWORD,
  });
  created++;
}
// Competitions: a maths olympiad with two phases and enrolled students, and a computer
// science one whose first phase takes sign-ups (elev5 and elev6 can register).
const idOf = async (email: string) => (await users.accountByEmail(email))?.id;
const [hasExams] = await database.db.select({ id: exams.id }).from(exams).limit(1);
if (!hasExams) {
  const ionescu = await idOf('prof.ionescu@demo.podium.ro');
  const popa = await idOf('prof.popa@demo.podium.ro');
  const maths = await makeExam(database.db, {
    name: 'Olimpiada de Matematică',
    description: 'Etapele locală și județeană',
    grades: [5, 6, 7, 8],
    adminTeacherIds: ionescu ? [ionescu] : [],
    staffTeacherIds: popa ? [popa] : [],
  });
  const mathsEdition = await makeEdition(database.db, {
    examId: maths.id,
    name: 'Ediția 2026–2027',
    coordinatorIds: ionescu ? [ionescu] : [],
  });
  const local = await makePhase(database.db, {
    editionId: mathsEdition.id,
    name: 'Etapa locală',
    startDate: new Date('2027-02-07T07:00:00Z'),
    endDate: new Date('2027-02-07T11:00:00Z'),
  });
  await makePhase(database.db, {
    editionId: mathsEdition.id,
    name: 'Etapa județeană',
    type: 'hybrid',
    startDate: new Date('2027-03-14T07:00:00Z'),
    endDate: new Date('2027-03-14T11:00:00Z'),
  });
  for (const [email, grade] of [
    ['elev1@demo.podium.ro', 5],
    ['elev2@demo.podium.ro', 6],
    ['elev4@demo.podium.ro', 8],
  ] as const) {
    const studentId = await idOf(email);
    if (studentId) {
      await makeEnrolment(database.db, {
        editionId: mathsEdition.id,
        studentId,
        grade,
        phaseIds: [local.id],
      });
    }
  }
  const informatics = await makeExam(database.db, {
    name: 'Olimpiada de Informatică',
    subject: 'Informatică',
    grades: [9, 10, 11, 12],
    adminTeacherIds: popa ? [popa] : [],
  });
  const informaticsEdition = await makeEdition(database.db, {
    examId: informatics.id,
    name: 'Ediția 2026–2027',
    termsUrl: 'https://example.ro/regulament-oni.pdf',
  });
  await makePhase(database.db, {
    editionId: informaticsEdition.id,
    name: 'Etapa pe școală',
    startDate: new Date('2027-01-24T08:00:00Z'),
    endDate: new Date('2027-01-24T12:00:00Z'),
    registrationOpen: true,
  });
  console.log('Demo competitions: Olimpiada de Matematică, Olimpiada de Informatică.');
}

await database.close();
console.log(
  `Demo data: ${created} new accounts. Every demo account uses the password "${PASSWORD}":`,
);
console.log(
  '  admin@demo.podium.ro, prof.ionescu@demo.podium.ro, prof.popa@demo.podium.ro, elev1…elev6@demo.podium.ro',
);
