import { index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, tz } from '../../db/columns.js';
import { users } from '../users/users.schema.js';

/** Opaque session tokens, stored as SHA-256 hashes; valid on every instance. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: tz('expires_at').notNull(),
    revokedAt: tz('revoked_at'),
    lastSeenAt: tz('last_seen_at').notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_key').on(t.tokenHash),
    index('sessions_user_idx').on(t.userId),
  ],
);

/** One-time codes carried by e-mail links (confirmation, password reset, sign-in). */
export const authLinks = pgTable(
  'auth_links',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    purpose: text('purpose', { enum: ['confirm', 'reset', 'login', 'oauth'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: tz('expires_at').notNull(),
    usedAt: tz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('auth_links_user_idx').on(t.userId, t.purpose)],
);

/**
 * Failed sign-in counters, shared by every instance: per account and address (`pair`), per
 * account from anywhere (`account`) and per address across accounts (`address`). A sign-in
 * takes its place in them before its password is checked, under their row locks.
 */
export const authThrottles = pgTable(
  'auth_throttles',
  {
    id: uuid('id').primaryKey(),
    key: text('key').notNull(),
    scope: text('scope', { enum: ['pair', 'account', 'address'] }).notNull(),
    email: text('email'),
    address: text('address'),
    failures: integer('failures').notNull(),
    lastFailureAt: tz('last_failure_at').notNull(),
  },
  (t) => [
    uniqueIndex('auth_throttles_key_key').on(t.key),
    index('auth_throttles_last_failure_idx').on(t.lastFailureAt),
  ],
);

/**
 * Browsers a user signed in from (the hash of a random token the browser keeps): a sign-in
 * from one of them skips the throttles above until it fails too often itself.
 */
export const knownDevices = pgTable(
  'known_devices',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    failures: integer('failures').notNull().default(0),
    createdAt: createdAt(),
    lastSignInAt: tz('last_sign_in_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('known_devices_user_token_key').on(t.userId, t.tokenHash)],
);

/**
 * OpenID Connect round trips in flight (state → PKCE verifier and nonce), each bound to the
 * browser that started it by the hash of a cookie only that browser holds.
 */
export const oidcStates = pgTable('oidc_states', {
  state: text('state').primaryKey(),
  codeVerifier: text('code_verifier').notNull(),
  nonce: text('nonce').notNull(),
  browserHash: text('browser_hash').notNull().default(''),
  signupType: text('signup_type', { enum: ['student', 'teacher'] })
    .notNull()
    .default('student'),
  expiresAt: tz('expires_at').notNull(),
});

/**
 * A school account (issuer + subject) linked to a Podium account: it signs in that account
 * even after its e-mail changes at the provider, and its first link is told to the owner.
 */
export const oidcIdentities = pgTable(
  'oidc_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.issuer, t.subject] }),
    index('oidc_identities_user_idx').on(t.userId),
  ],
);
