// The answers staff get: counts, progress, reminders, reassignment, key fixes, the start refusal.

import { z } from 'zod';

/** `{ count }` of a list (SPEC.md §7 `count.count`). */
export const reviewCountSchema = z.object({ count: z.number() });

/** How far the marking of one question has come. */
export const questionProgressSchema = z.object({
  itemId: z.string(),
  testId: z.string(),
  itemIndexInTest: z.number(),
  /** Answers under review. */
  total: z.number(),
  /** Entries with both marks given. */
  marked: z.number(),
  needsMediation: z.number(),
  final: z.number(),
  appealsPending: z.number(),
  appealsNeedMediation: z.number(),
  appealsResolved: z.number(),
});
/** How far one reviewer (or mediator) has come. */
export const reviewerProgressSchema = z.object({
  teacherId: z.string(),
  givenName: z.string().nullable(),
  familyName: z.string().nullable(),
  email: z.string(),
  assigned: z.number(),
  marked: z.number(),
  /** Marks still to give. */
  open: z.number(),
  /** Mediations waiting for them. */
  mediationsOpen: z.number(),
});
/** `GET …/progress`. */
/**
 * `GET …/marking-scope`: how many questions drawn into the phase's tests people mark — every
 * question of a hybrid phase, the open ones of an online phase (0: nothing to start marking,
 * only appeals on the key).
 */
export const markingScopeSchema = z.object({ questionsToMark: z.number() });
export type MarkingScope = z.infer<typeof markingScopeSchema>;

export const reviewProgressSchema = z.object({
  reviewStarted: z.boolean(),
  questions: z.array(questionProgressSchema),
  reviewers: z.array(reviewerProgressSchema),
});
export type ReviewProgress = z.infer<typeof reviewProgressSchema>;

/** A reviewer gets at most one reminder of a phase's marking in this time. */
export const REMINDER_INTERVAL_HOURS = 12;

/**
 * `POST …/reminders`: who was mailed, with their open work, and who was not because they had a
 * reminder of the phase less than REMINDER_INTERVAL_HOURS ago (`retryAfter`: when they may get
 * the next one).
 */
export const reminderResultSchema = z.object({
  sent: z.array(z.object({ teacherId: z.string(), open: z.number(), mediationsOpen: z.number() })),
  skipped: z.array(z.object({ teacherId: z.string(), retryAfter: z.string() })),
});
export type ReminderResult = z.infer<typeof reminderResultSchema>;

/** `POST …/reassignments`: marks moved, and those no other teacher could take. */
export const reassignResultSchema = z.object({ moved: z.number(), unmoved: z.number() });
export type ReassignResult = z.infer<typeof reassignResultSchema>;

/** One student's item whose score a key fix changes (admins see who). */
export const keyFixChangeSchema = z.object({
  testId: z.string(),
  studentId: z.string(),
  givenName: z.string().nullable(),
  familyName: z.string().nullable(),
  oldScore: z.number().nullable(),
  newScore: z.number(),
});
/** `POST …/key/preview`: whose scores the corrected key would change (nothing changes yet). */
export const keyFixPreviewSchema = z.object({
  itemId: z.string(),
  changes: z.array(keyFixChangeSchema),
  /** Committee appeals on this item that applying would resolve. */
  pendingAppeals: z.number(),
});
export type KeyFixPreview = z.infer<typeof keyFixPreviewSchema>;
/** `PUT …/key`: the key is corrected and every attempt rescored, in one transaction. */
export const keyFixResultSchema = keyFixPreviewSchema.extend({
  changedItems: z.number(),
  students: z.number(),
  resolvedAppeals: z.number(),
});
export type KeyFixResult = z.infer<typeof keyFixResultSchema>;

/** One question of the start-of-review refusal: the field still missing (SPEC.md §4). */
export const insufficientTeachersDetailSchema = z.object({
  itemId: z.string(),
  field: z.enum(['mediatorTeacher', 'gradingTeachers']),
});
export type InsufficientTeachersDetail = z.infer<typeof insufficientTeachersDetailSchema>;
