import { uuidv7 } from '../lib/ids.js';
import { normalizeName } from '../lib/text.js';
import { hashPassword } from '../modules/auth/secrets.js';
import type { Db } from './client.js';
import { users } from './schema.js';

export type UserRow = typeof users.$inferSelect;
export type UserSeed = Partial<typeof users.$inferInsert> & { password?: string };

let counter = 0;

/**
 * Inserts a user with sensible defaults (registered, active, confirmed). Shared by the API
 * tests, the browser tests and the demo data, so all three build people the same way.
 */
export async function makeUser(db: Db, seed: UserSeed = {}): Promise<UserRow> {
  counter += 1;
  const { password, ...fields } = seed;
  const type = fields.type ?? 'student';
  const givenName = fields.givenName ?? `Ana${counter}`;
  const familyName = fields.familyName ?? `Popescu${counter}`;
  const [row] = await db
    .insert(users)
    .values({
      id: uuidv7(),
      email: `user${counter}.${Date.now().toString(36)}@example.ro`,
      passwordHash: password ? await hashPassword(password) : null,
      state: 'active',
      registered: true,
      emailConfirmedAt: new Date(),
      country: 'România',
      county: 'Cluj',
      city: 'Cluj-Napoca',
      school: 'Colegiul Național „Emil Racoviță”',
      ...(type === 'student' ? { grade: 7, dateOfBirth: '2013-05-04', locale: 'ro' } : {}),
      ...(type === 'teacher' ? { discipline: 'Matematică' } : {}),
      ...fields,
      type,
      givenName,
      familyName,
      givenNameNormalized: normalizeName(givenName),
      familyNameNormalized: normalizeName(familyName),
    })
    .returning();
  if (!row) throw new Error('user not inserted');
  return row;
}
