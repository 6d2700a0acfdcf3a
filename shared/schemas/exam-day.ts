import { z } from 'zod';

/**
 * The exam-day panel (`GET /api/v1/test-player/exams/{examId}/editions/{editionId}/phases/
 * {phaseId}/live`): who of a phase's students is signed in, has started, is writing, has
 * finished or went quiet, and how the answer writes of the phase's tests fare across every
 * server process. Everything comes from the database, whichever instance answers.
 */

/** A running attempt with a sign of life this recent is writing; older, disconnected. */
export const WRITING_SECONDS = 60;
/** A session used this recently counts as signed in (sessions are touched every 5 minutes). */
export const SIGNED_IN_MINUTES = 15;
/** The answer-write figures cover this many whole minutes, the current one included. */
export const LIVE_MINUTES = 10;
/** How often the panel asks again. */
export const LIVE_REFRESH_MS = 10_000;
/** At most this many disconnected students are listed (the oldest sign of life first). */
export const MAX_DISCONNECTED_LISTED = 200;

const count = z.number().int().min(0);

export const liveCountsSchema = z.object({
  /** Students of the phase whose grade is one of the test's. */
  registered: count,
  /** With a session used in the last SIGNED_IN_MINUTES, or writing. */
  signedIn: count,
  /** With an attempt, whatever its state. */
  started: count,
  /** Running attempt with a sign of life in the last WRITING_SECONDS. */
  writing: count,
  /** Finished, or past the deadline plus grace (the sweeper finalises it). */
  finished: count,
  /** Running attempt, no sign of life for more than WRITING_SECONDS. */
  disconnected: count,
});
export type LiveCounts = z.infer<typeof liveCountsSchema>;

export const liveTestSchema = liveCountsSchema.extend({
  testId: z.uuid(),
  name: z.string(),
  grades: z.array(z.number().int()),
  startDate: z.iso.datetime(),
  endDate: z.iso.datetime(),
});
export type LiveTest = z.infer<typeof liveTestSchema>;

export const liveMinuteSchema = z.object({
  /** The minute's start. */
  minute: z.iso.datetime(),
  /** Answer writes acknowledged in that minute, all processes together. */
  writes: count,
  /** Answer writes refused or failed in that minute. */
  errors: count,
  /** 99th percentile of the writes' latency, as the upper bound of its bucket; null: none. */
  p99Ms: z.number().nullable(),
});
export type LiveMinute = z.infer<typeof liveMinuteSchema>;

export const disconnectedStudentSchema = z.object({
  studentId: z.uuid(),
  familyName: z.string().nullable(),
  givenName: z.string().nullable(),
  school: z.string().nullable(),
  grade: z.number().int().nullable(),
  testId: z.uuid(),
  /** The latest sign of life: start, answer written, or the player's state check. */
  lastSeenAt: z.iso.datetime(),
});
export type DisconnectedStudent = z.infer<typeof disconnectedStudentSchema>;

export const liveResponseSchema = z.object({
  /** The server's clock when the figures were read. */
  serverNow: z.iso.datetime(),
  /** `phase`: every student of the phase; `own`: a coordinator's own students only. */
  scope: z.enum(['phase', 'own']),
  total: liveCountsSchema,
  tests: z.array(liveTestSchema),
  /** Answer writes of the phase's tests, oldest minute first, LIVE_MINUTES of them. */
  minutes: z.array(liveMinuteSchema),
  /** Over all of `minutes`. */
  writes: count,
  errors: count,
  p99Ms: z.number().nullable(),
  /** Server processes that reported answer writes in these minutes. */
  processes: count,
  disconnected: z.array(disconnectedStudentSchema),
});
export type LiveResponse = z.infer<typeof liveResponseSchema>;
