import { z } from 'zod';

/**
 * What the bell tells a person. Each has its text in both languages (`notifications.kinds.*`);
 * the mail-backed ones are written with their mail (server/modules/notifications).
 */
export const NOTIFICATION_KINDS = [
  'enrolled',
  'test-soon',
  'results-published',
  'test-results-published',
  'score-changed',
  'result-changed',
  'marking-assigned',
  'review-reminder',
  'account-activated',
  'account-deactivated',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** How many notifications one page of the bell shows (newest first). */
export const NOTIFICATIONS_PAGE = 30;

export const notificationSchema = z.object({
  _id: z.uuid(),
  kind: z.enum(NOTIFICATION_KINDS),
  /** Names the text shows (`test`, `phase`, `exam`, `start`, `minutes`, `open`, `mediations`). */
  params: z.record(z.string(), z.string()),
  /** A path inside the app where the matter is seen or done; null when there is none. */
  link: z.string().nullable(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationsPageSchema = z.object({
  items: z.array(notificationSchema),
  /** Unread notifications in all (the badge), not only on this page. */
  unread: z.number().int(),
});
export type NotificationsPage = z.infer<typeof notificationsPageSchema>;

export const notificationParamsSchema = z.object({ notificationId: z.uuid() });
export const markedReadSchema = z.object({ marked: z.number().int() });
