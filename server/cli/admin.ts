// `npm run admin -- --email X [--password P]`: promotes a user to admin (active, registered,
// confirmed), or creates the admin when the address is new and a password is given.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { migrate } from '../db/migrate.js';
import { appendAudit } from '../lib/audit.js';
import { uuidv7 } from '../lib/ids.js';
import { hashPassword } from '../modules/auth/secrets.js';
import { usersService } from '../modules/users/users.service.js';

const { values } = parseArgs({
  options: { email: { type: 'string' }, password: { type: 'string' } },
});
const email = values.email?.trim().toLowerCase();
if (!email || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
  console.error('Usage: npm run admin -- --email someone@school.ro [--password secret]');
  process.exit(2);
}
if (values.password !== undefined && values.password.length < 8) {
  console.error('The password needs at least 8 characters.');
  process.exit(2);
}

const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  pgliteDir: path.join(config.dataDir, 'pgdata'),
});
try {
  await migrate(database);
  const users = usersService({ db: database.db });
  const existing = await users.accountByEmail(email);
  const fields = {
    type: 'admin' as const,
    state: 'active' as const,
    registered: true,
    emailConfirmedAt: existing?.emailConfirmedAt ?? new Date(),
    ...(values.password ? { passwordHash: await hashPassword(values.password) } : {}),
  };
  if (existing) {
    await users.updateAccount(existing.id, fields);
    await appendAudit(database.db, {
      actorId: null,
      action: 'user.promote.admin',
      entityType: 'user',
      entityId: existing.id,
      before: { type: existing.type, state: existing.state },
      after: { type: 'admin', state: 'active' },
      reason: 'command line',
    });
    console.log(`${email} is now an admin.`);
  } else if (values.password) {
    await users.createAccount({ id: uuidv7(), email, ...fields });
    console.log(`Created the admin ${email}.`);
  } else {
    console.error(`No user ${email}. Give --password to create one.`);
    process.exitCode = 1;
  }
} finally {
  await database.close();
}
