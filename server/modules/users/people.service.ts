import type { UserState } from '../../../shared/constants.js';
import type { StateChange, StateFailure } from '../../../shared/schemas/people.js';
import type { User } from '../../../shared/schemas/users.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import { AppError, forbidden, notFound } from '../../lib/errors.js';
import type { FileStorage } from '../../lib/files/storage.js';
import { forgetRecipient, type MailOutbox } from '../../lib/mail/outbox.js';
import type { PersonalDataPart } from '../../lib/personal-data.js';
import {
  canAnonymise,
  canManageStudent,
  canManageTeachers,
  visibilityOf,
} from './people.policy.js';
import * as repo from './people.repo.js';
import { studentsService } from './students.service.js';
import { teachersService } from './teachers.service.js';
import type { UserRow } from './users.repo.js';
import { describeUser } from './users.service.js';

type PersonType = 'student' | 'teacher';
export type PeopleDeps = {
  db: Db;
  outbox: Pick<MailOutbox, 'enqueue'>;
  /** Ends the user's sessions and spends their e-mail links, in the caller's transaction (auth). */
  cutAccess: (tx: Db, userId: string) => Promise<void>;
  /** Every module's part of a person's data: anonymising runs each one's `anonymise`. */
  personalData: readonly PersonalDataPart[];
  /** Where the bytes of the files anonymising removes are deleted, after the commit. */
  storage: Pick<FileStorage, 'delete'>;
  /** The person's marking work still open (test-review), in the caller's transaction. */
  openMarkingWork: (
    tx: Db,
    userId: string,
  ) => Promise<{ openMarks: number; pendingMediations: number }>;
  /** Takes the person out of every question's pool (resource-mgmt), audited as `actorId`'s. */
  leaveQuestionPools: (tx: Db, userId: string, actorId: string) => Promise<number>;
};

/** Whether the actor may change or delete this (visible) person of the list's type. */
const mayManage = (actor: Actor, type: PersonType, row: UserRow) =>
  type === 'student' ? canManageStudent(actor, row) : canManageTeachers(actor);

/** Why an item of a bulk change cannot be done, or undefined when it can. */
function failureOf(
  actor: Actor,
  type: PersonType,
  row: repo.LockedPerson | undefined,
): StateFailure['code'] | undefined {
  if (!row?.visible) return 'NOT_FOUND';
  if (row.type !== type) return 'CLIENT_ERROR';
  if (!mayManage(actor, type, row)) return 'OPERATION_NOT_PERMITTED';
  return undefined;
}

/** Everything of the people lists: reads, bulk state changes, deletion and anonymising. */
export function peopleService(deps: PeopleDeps) {
  const { db, outbox } = deps;

  /**
   * A person who leaves (deleted or anonymised) must not leave marking work behind that nobody
   * can finish: refused with USER_HAS_RESULTS and how much is open while marks are not given or
   * mediations wait for them (the organiser hands them on first, `…/reassignments`). Once they
   * go, they leave every question's pool, so nothing later is assigned to them; the marks they
   * gave stay.
   */
  async function assertNoOpenWork(tx: Db, userId: string): Promise<void> {
    const open = await deps.openMarkingWork(tx, userId);
    if (open.openMarks > 0 || open.pendingMediations > 0) {
      throw new AppError('USER_HAS_RESULTS', 'The person still has marking work open', {
        reason: 'open_marking_work',
        ...open,
      });
    }
  }

  return {
    ...studentsService({ db }),
    ...teachersService({ db }),

    /**
     * Sets the state of each listed person of `type` in one transaction and mails each one
     * that changed. Returns the items not done, in request order; nothing outside the actor's
     * scope or rights changes. Already being in the asked state is not a failure.
     */
    async changeStates(
      actor: Actor,
      type: PersonType,
      items: StateChange[],
      origin: string,
    ): Promise<StateFailure[]> {
      const failures: StateFailure[] = [];
      const wanted = new Map<string, UserState>();
      for (const { email, state } of items) {
        const asked = wanted.get(email);
        if (asked === undefined) wanted.set(email, state);
        else if (asked !== state) failures.push({ email, code: 'CLIENT_ERROR' });
      }
      for (const { email } of failures) wanted.delete(email);

      await db.transaction(async (tx) => {
        const rows = await repo.lockPeopleByEmail(tx, [...wanted.keys()], visibilityOf(actor));
        const byEmail = new Map(rows.map((r) => [r.email, r]));
        const toChange: { row: UserRow; state: UserState }[] = [];
        for (const [email, state] of wanted) {
          const row = byEmail.get(email);
          const code = failureOf(actor, type, row);
          if (code) failures.push({ email, code });
          else if (row && row.state !== state) toChange.push({ row, state });
        }
        for (const state of ['active', 'inactive'] as const) {
          const ids = toChange.filter((c) => c.state === state).map((c) => c.row.id);
          await repo.setStates(tx, ids, state);
        }
        for (const { row, state } of toChange) {
          await appendAudit(tx, {
            actorId: actor.id,
            action: 'user.state.change',
            entityType: 'user',
            entityId: row.id,
            before: { state: row.state },
            after: { state },
          });
          // Queued with the change: each person is told of it once it is committed.
          await outbox.enqueue(tx, {
            template: state === 'active' ? 'account-activated' : 'account-deactivated',
            to: row.email,
            userId: row.id,
            locale: row.uiLocale,
            params: { link: `${origin}/` },
          });
        }
      });
      const order = new Map(items.map((item, i) => [item.email, i]));
      return failures.sort((a, b) => (order.get(a.email) ?? 0) - (order.get(b.email) ?? 0));
    },

    /**
     * Soft-deletes a person of `type` the actor may manage: sessions ended, e-mail and team
     * code freed, out of every question's pool. Refused with USER_HAS_RESULTS when results or
     * roles would be lost, or while marking work of theirs is open (details say how much).
     */
    async removePerson(actor: Actor, type: PersonType, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await repo.lockVisibleUser(tx, { id }, visibilityOf(actor));
        if (!row || row.type !== type) throw notFound('user');
        if (!mayManage(actor, type, row)) throw forbidden();
        await assertNoOpenWork(tx, row.id);
        if (await repo.hasResults(tx, row.id)) {
          throw new AppError('USER_HAS_RESULTS', 'The person has results; anonymise instead');
        }
        await deps.leaveQuestionPools(tx, row.id, actor.id);
        await repo.softDeleteUser(tx, row.id);
        await deps.cutAccess(tx, row.id);
        await forgetRecipient(tx, row.id, row.email);
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'user.delete',
          entityType: 'user',
          entityId: row.id,
          before: { email: row.email, type: row.type, state: row.state },
        });
      });
    },

    /**
     * Replaces every personal detail of a student or teacher (names "Anonim", placeholder
     * e-mail, no password), ends their sessions, and has each module remove what of theirs
     * still names the person or is in their own words (open answers' texts, answer pages,
     * sign-in records and identities, the values of the audit events on the account); scores,
     * results, totals and ranks stay, so statistics still count them. Files' bytes go after
     * the commit. Refused with USER_HAS_RESULTS while marking work of theirs is open; once done,
     * they are out of every question's pool. Idempotent.
     */
    async anonymise(actor: Actor, id: string): Promise<User> {
      const removedKeys: string[] = [];
      const user = await db.transaction(async (tx) => {
        const row = await repo.lockVisibleUser(tx, { id }, visibilityOf(actor));
        if (!row) throw notFound('user');
        if (!canAnonymise(actor, row)) throw forbidden();
        await assertNoOpenWork(tx, row.id);
        await deps.leaveQuestionPools(tx, row.id, actor.id);
        await deps.cutAccess(tx, row.id);
        // Before the address is replaced: some parts find the person's rows by it.
        for (const part of deps.personalData) {
          removedKeys.push(...((await part.anonymise?.(tx, row.id)) ?? []));
        }
        const saved = await repo.anonymiseUser(tx, row.id);
        if (!saved) throw notFound('user');
        await forgetRecipient(tx, row.id, row.email);
        // The audit keeps no personal data: that is the point of anonymising.
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'user.anonymise',
          entityType: 'user',
          entityId: row.id,
          after: { anonymised: true, filesRemoved: removedKeys.length },
        });
        return describeUser(tx, saved);
      });
      // A byte left behind by a storage that failed now is unreachable (its record is gone).
      await Promise.all(removedKeys.map((key) => deps.storage.delete(key).catch(() => {})));
      return user;
    },
  };
}

export type PeopleService = ReturnType<typeof peopleService>;
