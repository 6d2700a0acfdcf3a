// `npm run admin -- --email X [--password P]`: promotes a user to admin (active, registered,
// confirmed), or creates the admin when the address is new and a password is given.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { adminPasswordProblem, promoteAdmin } from '../modules/auth/index.js';
import { usersService } from '../modules/users/index.js';

const { values } = parseArgs({
  options: { email: { type: 'string' }, password: { type: 'string' } },
});
const email = values.email?.trim().toLowerCase();
if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
  console.error('Usage: npm run admin -- --email someone@school.ro [--password secret]');
  process.exit(2);
}
const refused = values.password !== undefined && adminPasswordProblem(values.password, email);
if (refused) {
  console.error(refused);
  process.exit(2);
}

const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  pgliteDir: path.join(config.dataDir, 'pgdata'),
  // An operator's tool, not a request: its statements have no time limit.
  statementTimeoutMs: 0,
});
try {
  await migrate(database);
  const result = await promoteAdmin(
    { db: database.db, users: usersService({ db: database.db }) },
    { email, password: values.password },
  );
  if (result.outcome === 'promoted') console.log(`${email} is now an admin.`);
  else if (result.outcome === 'created') console.log(`Created the admin ${email}.`);
  else {
    console.error(`No user ${email}. Give --password to create one.`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
