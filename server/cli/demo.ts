// `npm run demo`: loads demonstration people (an admin, teachers, students) into the
// configured database, using the same factories as the tests. Safe to run twice.
import path from 'node:path';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { makeUser } from '../db/factories.js';
import { migrate } from '../db/migrate.js';
import { usersService } from '../modules/users/users.service.js';

const PASSWORD = 'podium-demo-2026';

const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  pgliteDir: path.join(config.dataDir, 'pgdata'),
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
await database.close();
console.log(
  `Demo data: ${created} new accounts. Every demo account uses the password "${PASSWORD}":`,
);
console.log(
  '  admin@demo.podium.ro, prof.ionescu@demo.podium.ro, prof.popa@demo.podium.ro, elev1…elev6@demo.podium.ro',
);
