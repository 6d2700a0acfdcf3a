import { BUCHAREST, type UiLocale } from '../../../shared/constants.js';
import type { FieldErrors } from '../../../shared/errors.js';
import {
  type RegisterStudentInput,
  type RegisterTeacherInput,
  registerStudentSchema,
  registerTeacherSchema,
  type Session,
} from '../../../shared/schemas/auth.js';
import type { User } from '../../../shared/schemas/users.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, fieldError, notFound, validationFailed, zodIssues } from '../../lib/errors.js';
import { uuidv7 } from '../../lib/ids.js';
import type { MailOutbox } from '../../lib/mail/outbox.js';
import { hashPassword, randomToken, sha256, verifyPassword } from '../../lib/secrets.js';
import { normalizeName } from '../../lib/text.js';
import type { UsersService } from '../users/index.js';
import { canRegister, canSignIn } from './auth.policy.js';
import * as repo from './auth.repo.js';
import { assertGoodPassword } from './password-policy.js';
import type { ThrottleService } from './throttle.service.js';

export type AuthDeps = {
  db: Db;
  config: Config;
  clock: Clock;
  outbox: Pick<MailOutbox, 'enqueue'>;
  users: UsersService;
  throttle: ThrottleService;
};

/**
 * What a request tells the service: the origin for links (server/lib/origin.ts), the client
 * address and browser, and the browser's own token when it sent a well-formed one.
 */
export type RequestInfo = { origin: string; ip?: string; userAgent?: string; deviceToken?: string };

const minutes = (n: number) => n * 60_000;
const SESSION_TOUCH_MS = minutes(5);

/** PostgreSQL's unique_violation, also when Drizzle wraps it (DrizzleQueryError.cause). */
function isUniqueViolation(e: unknown): boolean {
  let cause = e;
  for (let depth = 0; depth < 5 && typeof cause === 'object' && cause !== null; depth++) {
    if ((cause as { code?: unknown }).code === '23505') return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

export function authService({ db, config, clock, outbox, users, throttle }: AuthDeps) {
  const liveSession = repo.liveSessionQuery(db);
  const after = (ms: number) => new Date(clock.now().getTime() + ms);

  /** A new session; the browser that asked for it becomes a known one for this user. */
  async function createSession(userId: string, info?: RequestInfo, tx: Db = db): Promise<Session> {
    await throttle.rememberDevice(userId, info?.deviceToken, tx);
    const token = randomToken();
    await repo.insertSession(tx, {
      userId,
      tokenHash: sha256(token),
      expiresAt: after(config.session.ttlHours * 3_600_000),
      ip: info?.ip,
      userAgent: info?.userAgent?.slice(0, 300),
    });
    return { token, userId };
  }

  async function createLink(userId: string, purpose: repo.LinkPurpose, ttlMs: number) {
    const code = randomToken();
    await repo.insertLink(db, { userId, purpose, codeHash: sha256(code), expiresAt: after(ttlMs) });
    return code;
  }

  /** Queues a confirmation mail; its link is made when the mail worker sends it. */
  async function sendConfirmation(
    user: { id: string; email: string; uiLocale: UiLocale },
    origin: string,
    tx: Db = db,
  ) {
    await outbox.enqueue(tx, {
      template: 'confirm-email',
      to: user.email,
      userId: user.id,
      locale: user.uiLocale,
      params: { origin },
    });
  }

  return {
    /**
     * Creates an unconfirmed account and mails a confirmation link. The answer is the same
     * whether or not the address was taken; the owner of a taken address is told by mail.
     */
    async signup(
      input: { email: string; password: string; type: 'student' | 'teacher'; locale: UiLocale },
      info: RequestInfo,
    ): Promise<{ ok: true }> {
      assertGoodPassword(input.password, input.email);
      const passwordHash = await hashPassword(input.password);
      // The account and its mail commit together: no account without its confirmation.
      await db.transaction(async (tx) => {
        const created = await users.createAccount(
          {
            id: uuidv7(),
            email: input.email,
            passwordHash,
            type: input.type,
            state: 'inactive',
            registered: false,
            uiLocale: input.locale,
          },
          tx,
        );
        if (created) {
          await sendConfirmation(created, info.origin, tx);
        } else {
          const existing = await users.accountByEmail(input.email, tx);
          await outbox.enqueue(tx, {
            template: 'signup-existing',
            to: input.email,
            userId: existing?.id,
            locale: existing?.uiLocale ?? input.locale,
            params: { link: `${info.origin}/` },
          });
        }
      });
      return { ok: true };
    },

    /**
     * Exchanges a one-time link code for a session. A confirmation code also confirms the
     * e-mail address. Used, expired or unknown codes all answer INVALID_CODE, except at the
     * end of a school sign-in (`oauth`), where they answer OIDC_FAILED: that sign-in failed.
     */
    async exchangeCode(
      uid: string,
      code: string,
      kind: 'link' | 'oauth',
      info: RequestInfo,
    ): Promise<Session> {
      const purposes: repo.LinkPurpose[] = kind === 'oauth' ? ['oauth'] : ['confirm', 'login'];
      const invalid = () =>
        kind === 'oauth'
          ? new AppError('OIDC_FAILED', 'The school sign-in did not finish')
          : new AppError('INVALID_CODE', 'The link is not valid any more');
      return db.transaction(async (tx) => {
        const used = await repo.consumeLink(tx, {
          userId: uid,
          codeHash: sha256(code),
          purposes,
          now: clock.now(),
        });
        if (!used) throw invalid();
        const user = await users.accountById(uid, tx);
        if (!canSignIn(user)) throw invalid();
        if (!user.emailConfirmedAt)
          await users.updateAccount(uid, { emailConfirmedAt: clock.now() }, tx);
        return createSession(uid, info, tx);
      });
    },

    /**
     * Signs in with e-mail and password. Wrong e-mail and wrong password answer alike. Repeated
     * failures make further tries wait (TOO_MANY_ATTEMPTS with retryAfter, throttle.rules.ts),
     * except from a browser that signed in to this account before; the password is checked
     * only for a try that is taken.
     */
    async login(input: { email: string; password: string }, info: RequestInfo): Promise<Session> {
      const found = await users.accountByEmail(input.email);
      // An anonymised account is answered like an address nobody has.
      const user = canSignIn(found) ? found : undefined;
      const known = user ? await throttle.isTrustedDevice(user.id, info.deviceToken) : false;
      if (!known) await throttle.admit(input.email, info.ip);
      const ok = await verifyPassword(user?.passwordHash, input.password);
      if (!user || !ok) throw new AppError('INVALID_CREDENTIALS', 'Wrong e-mail or password');
      await throttle.succeeded(input.email, info.ip);
      if (!user.emailConfirmedAt) {
        await sendConfirmation(user, info.origin);
        throw new AppError(
          'EMAIL_NOT_CONFIRMED',
          'Confirm the e-mail address first; a new link was sent',
        );
      }
      return createSession(user.id, info);
    },

    /**
     * Queues the request itself: the mail worker looks the address up and mails a reset link
     * only when it has an account. Known and unknown addresses cost this request the same
     * work and get the same answer.
     */
    async forgotPassword(
      input: { email: string; locale?: UiLocale },
      info: RequestInfo,
    ): Promise<{ ok: true }> {
      await outbox.enqueue(db, {
        template: 'reset-password',
        to: input.email,
        userId: null,
        locale: input.locale ?? 'ro',
        params: { origin: info.origin },
      });
      return { ok: true };
    },

    /** Sets a new password from a reset link, ends every other session and signs in. */
    async resetPassword(
      input: { uid: string; code: string; password: string },
      info: RequestInfo,
    ): Promise<Session> {
      assertGoodPassword(input.password);
      const passwordHash = await hashPassword(input.password);
      return db.transaction(async (tx) => {
        const now = clock.now();
        const used = await repo.consumeLink(tx, {
          userId: input.uid,
          codeHash: sha256(input.code),
          purposes: ['reset'],
          now,
        });
        if (!used) throw new AppError('INVALID_CODE', 'The link is not valid any more');
        const existing = await users.accountById(input.uid, tx);
        if (!canSignIn(existing)) {
          throw new AppError('INVALID_CODE', 'The link is not valid any more');
        }
        // Refused here, the transaction rolls back and the link stays usable.
        assertGoodPassword(input.password, existing.email);
        // The reset link proved the mailbox, so it confirms the address too.
        const user = await users.updateAccount(
          input.uid,
          { passwordHash, emailConfirmedAt: existing.emailConfirmedAt ?? now },
          tx,
        );
        if (!user) throw new AppError('INVALID_CODE', 'The link is not valid any more');
        await repo.revokeUserSessions(tx, input.uid, now);
        await throttle.forgetAccount(user.email, tx);
        await appendAudit(tx, {
          actorId: input.uid,
          action: 'user.password.reset',
          entityType: 'user',
          entityId: input.uid,
        });
        return createSession(input.uid, info, tx);
      });
    },

    /** The session's actor for a bearer token, or null; refreshes last-seen at most every 5 min. */
    async resolveSession(token: string): Promise<Actor | null> {
      const now = clock.now();
      const row = await liveSession(sha256(token), now);
      if (!row || !canSignIn({ email: row.email, deletedAt: null })) return null;
      if (now.getTime() - row.lastSeenAt.getTime() > SESSION_TOUCH_MS) {
        await repo.touchSession(db, row.sessionId, now);
      }
      return {
        id: row.id,
        email: row.email,
        type: row.type,
        state: row.state,
        registered: row.registered,
        sessionId: row.sessionId,
      };
    },

    async whoami(actor: Actor, headerUserId: string | undefined): Promise<User> {
      if (headerUserId && headerUserId !== actor.id) {
        throw new AppError('UNAUTHORIZED', 'The session belongs to another user');
      }
      const row = await users.accountById(actor.id);
      if (!row) throw new AppError('UNAUTHORIZED', 'A valid session is required');
      return users.describe(row);
    },

    /**
     * Completes the profile once (SPEC.md §5 team-code rules). The account stays inactive
     * until a teacher or admin activates it.
     */
    async register(actor: Actor, headerUserId: string | undefined, body: unknown): Promise<User> {
      if (headerUserId && headerUserId !== actor.id) throw notFound('user');
      return db.transaction(async (tx) => {
        const row = await users.lockAccount(tx, actor.id);
        if (!row) throw notFound('user');
        if (!canRegister(actor, row))
          throw new AppError('ALREADY_REGISTERED', 'Already registered');
        const patch =
          row.type === 'teacher' ? await teacherPatch(tx, body) : await studentPatch(tx, body);
        let saved: Awaited<ReturnType<typeof users.updateAccount>>;
        try {
          saved = await users.updateAccount(actor.id, { ...patch, registered: true }, tx);
        } catch (e) {
          if (isUniqueViolation(e)) throw fieldError({ teacherCode: ['code_exists'] });
          throw e;
        }
        if (!saved) throw notFound('user');
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'user.register',
          entityType: 'user',
          entityId: actor.id,
          after: patch,
        });
        return users.describe(saved, tx);
      });
    },

    async logout(actor: Actor): Promise<{ ok: true }> {
      await repo.revokeSession(db, actor.sessionId, clock.now());
      return { ok: true };
    },

    createSession,
    createLink,
  };

  function parseOrThrow<T>(
    schema: {
      safeParse(
        v: unknown,
      ): { success: true; data: T } | { success: false; error: import('zod').ZodError };
    },
    body: unknown,
  ): T {
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw validationFailed(zodIssues(parsed.error));
    return parsed.data;
  }

  async function teacherPatch(tx: Db, body: unknown) {
    const input = parseOrThrow<RegisterTeacherInput & { teacherCode: string }>(
      registerTeacherSchema,
      body,
    );
    if (await users.isTeacherCodeTaken(input.teacherCode, tx)) {
      throw fieldError({ teacherCode: ['code_exists'] } satisfies FieldErrors);
    }
    return {
      givenName: input.givenName,
      familyName: input.familyName,
      givenNameNormalized: normalizeName(input.givenName),
      familyNameNormalized: normalizeName(input.familyName),
      county: input.county,
      country: 'România',
      city: input.city,
      school: input.school,
      discipline: input.discipline,
      teacherCode: input.teacherCode,
    };
  }

  async function studentPatch(tx: Db, body: unknown) {
    const input = parseOrThrow<RegisterStudentInput>(registerStudentSchema, body);
    if (!input.teacherCode) {
      throw new AppError('TEACHER_CODE_NOT_PROVIDED', 'A team code is required', {
        teacherCode: ['presence'],
      });
    }
    const teacher = await users.teacherByCode(input.teacherCode, tx);
    if (!teacher) {
      throw new AppError('TEACHER_CODE_NOT_FOUND', 'No teacher has this code', {
        teacherCode: ['teacher_not_found'],
      });
    }
    return {
      givenName: input.givenName,
      familyName: input.familyName,
      givenNameNormalized: normalizeName(input.givenName),
      familyNameNormalized: normalizeName(input.familyName),
      dateOfBirth: input.dateOfBirth,
      county: input.county,
      bucharestSector: input.county === BUCHAREST ? (input.bucharestSector ?? null) : null,
      country: 'România',
      city: input.city,
      school: input.school,
      grade: input.grade,
      locale: input.locale,
      occupation: input.occupation || null,
      teacherRef: teacher.id,
    };
  }
}

export type AuthService = ReturnType<typeof authService>;
