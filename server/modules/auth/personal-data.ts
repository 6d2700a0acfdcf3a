import { eq, or } from 'drizzle-orm';
import { authThrottles, knownDevices, oidcIdentities, sessions, users } from '../../db/schema.js';
import type { PersonalDataPart } from '../../lib/personal-data.js';

/**
 * The sign-in side of a person: sessions (when, from which address and browser), school
 * identities, browsers that signed in before, failure counters on their address. Anonymising
 * removes all of it (access was cut already); nothing of it serves statistics.
 */
export const authPersonalData: PersonalDataPart = {
  name: 'signIn',
  async collect(db, userId) {
    const [sessionRows, identities, devices] = await Promise.all([
      db
        .select({
          createdAt: sessions.createdAt,
          lastSeenAt: sessions.lastSeenAt,
          expiresAt: sessions.expiresAt,
          revokedAt: sessions.revokedAt,
          ip: sessions.ip,
          userAgent: sessions.userAgent,
        })
        .from(sessions)
        .where(eq(sessions.userId, userId))
        .orderBy(sessions.createdAt),
      db
        .select({
          issuer: oidcIdentities.issuer,
          subject: oidcIdentities.subject,
          linkedAt: oidcIdentities.createdAt,
        })
        .from(oidcIdentities)
        .where(eq(oidcIdentities.userId, userId)),
      db
        .select({ firstSignInAt: knownDevices.createdAt, lastSignInAt: knownDevices.lastSignInAt })
        .from(knownDevices)
        .where(eq(knownDevices.userId, userId)),
    ]);
    return { sessions: sessionRows, schoolIdentities: identities, knownBrowsers: devices };
  },
  /** Runs before the account's address is replaced: the counters are kept by address. */
  async anonymise(tx, userId) {
    const [person] = await tx
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, userId));
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    await tx.delete(oidcIdentities).where(eq(oidcIdentities.userId, userId));
    await tx.delete(knownDevices).where(eq(knownDevices.userId, userId));
    if (person) {
      await tx
        .delete(authThrottles)
        .where(
          or(
            eq(authThrottles.email, person.email),
            eq(authThrottles.email, person.email.toLowerCase()),
          ),
        );
    }
    return undefined;
  },
};
