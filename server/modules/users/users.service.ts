import { BUCHAREST } from '../../../shared/constants.js';
import type { ProfilePatch, User } from '../../../shared/schemas/users.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import { AppError, fieldError, forbidden, notFound } from '../../lib/errors.js';
import { UUID_RE } from '../../lib/ids.js';
import { normalizeName } from '../../lib/text.js';
import { canChangeTeacherCode, visibilityOf } from './people.policy.js';
import {
  editionsOfStudents,
  findVisibleUser,
  hasResults,
  lockVisibleUser,
  type PersonKey,
} from './people.repo.js';
import { toUserDto } from './users.dto.js';
import { canChangeAccountType, canEditProfile } from './users.policy.js';
import * as repo from './users.repo.js';

export type UsersDeps = { db: Db };

/** Fields a student may not carry and fields a teacher may not carry. */
const STUDENT_ONLY = ['dateOfBirth', 'grade', 'locale', 'occupation', 'bucharestSector'] as const;
const TEACHER_ONLY = ['discipline'] as const;

/** PostgreSQL's unique_violation, also when Drizzle wraps it (DrizzleQueryError.cause). */
function isUniqueViolation(e: unknown): boolean {
  let cause = e;
  for (let depth = 0; depth < 5 && typeof cause === 'object' && cause !== null; depth++) {
    if ((cause as { code?: unknown }).code === '23505') return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

const codeExists = () => fieldError({ teacherCode: ['code_exists'] });

/**
 * The API's views of these users, each student with their team code (their teacher's code,
 * one read for all the rows) and, when given, the editions they are enrolled in.
 */
export async function describeUsers(
  db: Db,
  rows: readonly repo.PersonRow[],
  editions?: ReadonlyMap<string, { editionId: string }[]>,
): Promise<User[]> {
  const teacherIds = rows.flatMap((r) =>
    r.type === 'student' && r.teacherRef ? [r.teacherRef] : [],
  );
  const codes = await repo.teamCodes(db, teacherIds);
  return rows.map((row) =>
    toUserDto(row, {
      studentEditions: editions?.get(row.id) ?? [],
      teamCode: row.teacherRef ? (codes.get(row.teacherRef) ?? null) : null,
    }),
  );
}

/**
 * One user's API view (see `describeUsers`), a student's with the editions they are enrolled
 * in (SPEC.md §3): whoami, `GET /users/{id}` and every profile change answer with them.
 */
export async function describeUser(db: Db, row: repo.PersonRow): Promise<User> {
  const editions = row.type === 'student' ? await editionsOfStudents(db, [row.id]) : undefined;
  const [user] = await describeUsers(db, [row], editions);
  if (!user) throw new Error('no view of the user');
  return user;
}

/**
 * Gives a locked teacher row a new team code and audits it. A code held by anyone else, even
 * when two requests race for it, is `code_exists` (the unique index decides the race).
 */
async function setTeacherCode(tx: Db, actor: Actor, row: repo.UserRow, code: string) {
  if (row.teacherCode === code) return row;
  if (await repo.teacherCodeTaken(tx, code)) throw codeExists();
  let saved: repo.UserRow | undefined;
  try {
    saved = await repo.updateUser(tx, row.id, { teacherCode: code });
  } catch (e) {
    if (isUniqueViolation(e)) throw codeExists();
    throw e;
  }
  if (!saved) throw notFound('user');
  await appendAudit(tx, {
    actorId: actor.id,
    action: 'user.teacher_code.change',
    entityType: 'user',
    entityId: row.id,
    before: { teacherCode: row.teacherCode },
    after: { teacherCode: code },
  });
  return saved;
}

/** `/users/{user}` names a user by id or by e-mail; an e-mail address is never a UUID. */
const personKey = (user: string): PersonKey =>
  UUID_RE.test(user) ? { id: user } : { email: user };

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
    describe: (row: repo.UserRow, tx: Db = db) => describeUser(tx, row),

    /**
     * The user by id or e-mail if they are in the actor's scope (themself, their students, teachers for
     * active teachers, everyone for admins); otherwise "not found" (never a hint).
     */
    async getUser(actor: Actor, user: string): Promise<User> {
      const row = await findVisibleUser(db, personKey(user), visibilityOf(actor));
      if (!row) throw notFound('user');
      return describeUser(db, row);
    },

    /**
     * The user (by id or e-mail) changes only the fields sent; names are re-normalised; the old values are audited. A
     * student's `teacherCode` re-links them to that teacher; a teacher's changes their code.
     */
    async patchProfile(actor: Actor, user: string, patch: ProfilePatch): Promise<User> {
      const row = await findVisibleUser(db, personKey(user), visibilityOf(actor));
      if (!row) throw notFound('user');
      if (!canEditProfile(actor, row)) throw forbidden();
      // Until an account is registered and active its owner may keep only layout and language.
      const isComplete = actor.type === 'admin' || (actor.registered && actor.state === 'active');
      if (!isComplete && Object.keys(patch).some((k) => k !== 'data' && k !== 'uiLocale')) {
        throw forbidden();
      }
      const wrongFields = Object.keys(patch).filter((k) =>
        row.type === 'student'
          ? (TEACHER_ONLY as readonly string[]).includes(k)
          : (STUDENT_ONLY as readonly string[]).includes(k) ||
            (k === 'teacherCode' && row.type !== 'teacher'),
      );
      if (wrongFields.length > 0) {
        throw fieldError(Object.fromEntries(wrongFields.map((f) => [f, ['invalid' as const]])));
      }
      const { data, teacherCode, ...fields } = patch;
      const next: Partial<repo.NewUserRow> = { ...fields };
      const changed: Record<string, unknown> = { ...fields };
      if (teacherCode !== undefined && row.type === 'student') {
        const teacher = await repo.findTeacherByCode(db, teacherCode);
        if (!teacher) {
          throw new AppError('TEACHER_CODE_NOT_FOUND', 'No teacher has this code', {
            teacherCode: ['teacher_not_found'],
          });
        }
        next.teacherRef = teacher.id;
        changed.teacherRef = teacher.id;
      }
      // A sector belongs to București only: another county clears it, whatever was sent.
      if (
        (fields.county ?? row.county) !== BUCHAREST &&
        (fields.county !== undefined || fields.bucharestSector !== undefined)
      ) {
        next.bucharestSector = null;
        if (row.bucharestSector !== null || fields.bucharestSector !== undefined) {
          changed.bucharestSector = null;
        } else {
          delete changed.bucharestSector;
        }
      }
      if (fields.givenName !== undefined)
        next.givenNameNormalized = normalizeName(fields.givenName);
      if (fields.familyName !== undefined)
        next.familyNameNormalized = normalizeName(fields.familyName);
      if (data !== undefined) {
        next.data = { ...row.data, ...data, settings: { ...row.data?.settings, ...data.settings } };
      }
      const updated = await db.transaction(async (tx) => {
        if (teacherCode !== undefined && row.type === 'teacher') {
          const locked = await repo.lockUser(tx, row.id);
          if (!locked) throw notFound('user');
          await setTeacherCode(tx, actor, locked, teacherCode);
        }
        const saved = await repo.updateUser(tx, row.id, next);
        const keys = Object.keys(changed);
        if (keys.length > 0) {
          await appendAudit(tx, {
            actorId: actor.id,
            action: 'user.profile.update',
            entityType: 'user',
            entityId: row.id,
            before: Object.fromEntries(keys.map((k) => [k, row[k as keyof typeof row]])),
            after: changed,
          });
        }
        return saved;
      });
      if (!updated) throw notFound('user');
      return describeUser(db, updated);
    },

    /**
     * A teacher's new team code (their own, or anyone's for admins). Their students stay
     * linked: they point at the teacher's id, not at the code.
     */
    async changeTeacherCode(actor: Actor, email: string, code: string): Promise<User> {
      return db.transaction(async (tx) => {
        const row = await lockVisibleUser(tx, { email }, visibilityOf(actor));
        if (!row) throw notFound('user');
        if (!canChangeTeacherCode(actor, row)) throw forbidden();
        if (row.type !== 'teacher') throw fieldError({ teacherCode: ['invalid'] });
        return toUserDto(await setTeacherCode(tx, actor, row, code));
      });
    },

    /**
     * Corrects an account created as the wrong type (a teacher who signed up as a student).
     * Only while nothing hangs on the old type (no enrolment, role or students:
     * USER_HAS_RESULTS); the other type's details are cleared and the person completes the
     * new type's registration at their next visit. Audited.
     */
    async changeAccountType(
      actor: Actor,
      email: string,
      type: 'student' | 'teacher',
    ): Promise<User> {
      return db.transaction(async (tx) => {
        const row = await lockVisibleUser(tx, { email }, visibilityOf(actor));
        if (!row) throw notFound('user');
        if (!canChangeAccountType(actor)) throw forbidden();
        if (row.type === 'admin') throw fieldError({ type: ['invalid'] });
        if (row.type === type) return describeUser(tx, row);
        if (await hasResults(tx, row.id)) {
          throw new AppError('USER_HAS_RESULTS', 'The account has enrolments, roles or students');
        }
        const saved = await repo.updateUser(tx, row.id, {
          type,
          registered: false,
          // Details of the old type go; the new type's registration asks for its own.
          grade: null,
          dateOfBirth: null,
          locale: null,
          occupation: null,
          teacherRef: null,
          discipline: null,
          teacherCode: null,
        });
        if (!saved) throw notFound('user');
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'user.type.change',
          entityType: 'user',
          entityId: row.id,
          before: { type: row.type, registered: row.registered },
          after: { type, registered: false },
        });
        return describeUser(tx, saved);
      });
    },
  };
}

export type UsersService = ReturnType<typeof usersService>;
