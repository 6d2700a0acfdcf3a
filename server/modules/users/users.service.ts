import type { ProfilePatch, User } from '../../../shared/schemas/users.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import { fieldError, forbidden, notFound } from '../../lib/errors.js';
import { normalizeName } from '../../lib/text.js';
import { toUserDto } from './users.dto.js';
import { canEditProfile, canViewUser } from './users.policy.js';
import * as repo from './users.repo.js';

export type UsersDeps = { db: Db };

/** Fields a student may not carry and fields a teacher may not carry. */
const STUDENT_ONLY = ['dateOfBirth', 'grade', 'locale', 'occupation'] as const;
const TEACHER_ONLY = ['discipline'] as const;

export function usersService({ db }: UsersDeps) {
  return {
    // Account records for the auth module, which owns credentials but not the users table.
    accountByEmail: (email: string, tx: Db = db) => repo.findUserByEmail(tx, email),
    accountById: (id: string, tx: Db = db) => repo.findUserById(tx, id),
    lockAccount: (tx: Db, id: string) => repo.lockUser(tx, id),
    createAccount: (row: repo.NewUserRow, tx: Db = db) => repo.insertUserIfNew(tx, row),
    updateAccount: (id: string, patch: Partial<repo.NewUserRow>, tx: Db = db) =>
      repo.updateUser(tx, id, patch),
    teacherByCode: (code: string, tx: Db = db) => repo.findTeacherByCode(tx, code),
    isTeacherCodeTaken: (code: string, tx: Db = db) => repo.teacherCodeTaken(tx, code),
    countAdmins: (tx: Db = db) => repo.countAdmins(tx),
    lockAdminBootstrap: (tx: Db) => repo.lockAdminBootstrap(tx),
    toDto: toUserDto,

    /** The user by id, if the actor may see them; otherwise "not found" (never a hint). */
    async getUser(actor: Actor, id: string): Promise<User> {
      const row = await repo.findUserById(db, id);
      if (!row || !canViewUser(actor, row)) throw notFound('user');
      return toUserDto(row);
    },

    /** Changes only the fields sent; names are re-normalised; the old values are audited. */
    async patchProfile(actor: Actor, email: string, patch: ProfilePatch): Promise<User> {
      const row = await repo.findUserByEmail(db, email.trim().toLowerCase());
      if (!row || !canViewUser(actor, row)) throw notFound('user');
      if (!canEditProfile(actor, row)) throw forbidden();
      // Until an account is registered and active its owner may keep only layout and language.
      const isComplete = actor.type === 'admin' || (actor.registered && actor.state === 'active');
      if (!isComplete && Object.keys(patch).some((k) => k !== 'data' && k !== 'uiLocale')) {
        throw forbidden();
      }
      const wrongFields = Object.keys(patch).filter((k) =>
        row.type === 'student'
          ? (TEACHER_ONLY as readonly string[]).includes(k)
          : (STUDENT_ONLY as readonly string[]).includes(k),
      );
      if (wrongFields.length > 0) {
        throw fieldError(Object.fromEntries(wrongFields.map((f) => [f, ['invalid' as const]])));
      }
      const { data, ...fields } = patch;
      const next: Partial<repo.NewUserRow> = { ...fields };
      if (fields.givenName !== undefined)
        next.givenNameNormalized = normalizeName(fields.givenName);
      if (fields.familyName !== undefined)
        next.familyNameNormalized = normalizeName(fields.familyName);
      if (data !== undefined) {
        next.data = { ...row.data, ...data, settings: { ...row.data?.settings, ...data.settings } };
      }
      const updated = await db.transaction(async (tx) => {
        const saved = await repo.updateUser(tx, row.id, next);
        const changed = Object.keys(fields);
        if (changed.length > 0) {
          await appendAudit(tx, {
            actorId: actor.id,
            action: 'user.profile.update',
            entityType: 'user',
            entityId: row.id,
            before: Object.fromEntries(changed.map((k) => [k, row[k as keyof typeof row]])),
            after: fields,
          });
        }
        return saved;
      });
      if (!updated) throw notFound('user');
      return toUserDto(updated);
    },
  };
}

export type UsersService = ReturnType<typeof usersService>;
