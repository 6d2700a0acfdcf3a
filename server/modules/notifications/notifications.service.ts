import {
  NOTIFICATION_KINDS,
  NOTIFICATIONS_PAGE,
  type Notification,
  type NotificationKind,
  type NotificationsPage,
} from '../../../shared/schemas/notifications.js';
import type { MyTest } from '../../../shared/schemas/player.js';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../lib/auth-guard.js';
import type { Clock } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import * as repo from './notifications.repo.js';

/** A test opening within this many hours is "soon" (the bell says so once per test). */
export const TEST_SOON_HOURS = 24;

export type NotificationsDeps = {
  db: Db;
  clock: Clock;
  /** The player's list of the student's tests (the same rules as My tests). */
  myTests: (actor: Actor) => Promise<MyTest[]>;
};

const isKind = (kind: string): kind is NotificationKind =>
  (NOTIFICATION_KINDS as readonly string[]).includes(kind);

function toDto(row: repo.NotificationRow): Notification | undefined {
  if (!isKind(row.kind)) return undefined;
  return {
    _id: row.id,
    kind: row.kind,
    params: row.params,
    link: row.link,
    createdAt: row.createdAt.toISOString(),
    read: row.readAt !== null,
  };
}

/** The bell: each person's own notifications, read and unread; nobody reads another's. */
export function notificationsService({ db, clock, myTests }: NotificationsDeps) {
  /**
   * A student's tests that open within TEST_SOON_HOURS get their notification when the
   * student next asks (no timer needed: the bell is asked on every screen).
   */
  async function noteTestsSoon(actor: Actor) {
    if (actor.type !== 'student' || actor.state !== 'active' || !actor.registered) return;
    const now = clock.now().getTime();
    const soon = (await myTests(actor)).filter((t) => {
      const start = Date.parse(t.startDate);
      return t.state === 'upcoming' && start > now && start - now <= TEST_SOON_HOURS * 3_600_000;
    });
    if (soon.length === 0) return;
    const keys = soon.map((t) => `test-soon:${t.testId}`);
    const known = await repo.findDedupeKeys(db, actor.id, keys);
    await repo.insertNotifications(
      db,
      soon
        .filter((t) => !known.has(`test-soon:${t.testId}`))
        .map((t) => ({
          userId: actor.id,
          kind: 'test-soon',
          params: { test: t.name, start: t.startDate, minutes: String(t.duration) },
          link: '/verificare-conexiune',
          dedupeKey: `test-soon:${t.testId}`,
        })),
    );
  }

  return {
    /** The caller's newest notifications and how many are unread in all. */
    async list(actor: Actor): Promise<NotificationsPage> {
      await noteTestsSoon(actor);
      const rows = await repo.listNotifications(db, actor.id, NOTIFICATIONS_PAGE);
      return {
        items: rows.flatMap((r) => toDto(r) ?? []),
        unread: await repo.countUnread(db, actor.id),
      };
    },

    /** Marks one of the caller's notifications read; another person's is not found. */
    async markRead(actor: Actor, id: string): Promise<{ marked: number }> {
      if (!(await repo.markRead(db, actor.id, id, clock.now()))) throw notFound('notification');
      return { marked: 1 };
    },

    /** Marks every notification of the caller read. */
    async markAllRead(actor: Actor): Promise<{ marked: number }> {
      return { marked: await repo.markAllRead(db, actor.id, clock.now()) };
    },
  };
}

export type NotificationsService = ReturnType<typeof notificationsService>;
