import { z } from 'zod';
import { MAX_TEXT_LENGTH } from '../constants.js';
import { requiredMultilineText } from './fields.js';
import { ITEM_TYPES, MAX_ANSWERS } from './items.js';
import { MAX_OPEN_ANSWER_LENGTH } from './player-values.js';
import { RESULT_STATES } from './results.js';

/**
 * The test player (SPEC.md §3 Test player, §4 Test-taking, §7 test-player), under
 * `/api/v1/test-player`. The server's clock decides every window, deadline and timer:
 * `timer` is the remaining whole seconds at `serverNow`, and a client shows
 * `deadline - (its clock + (serverNow - its clock at receipt))`, never its own idea of time.
 *
 * Calls (student):
 * - `GET  /mytests` → `MyTest[]`
 * - `POST /mytests/{testId}` body `StartRequest` → `StartResponse` (idempotent: a second start
 *   returns the same attempt with its remaining time; `termsAccepted: true` is required only
 *   when no attempt exists yet)
 * - `PUT  /mytests/{testId}` body `AnswerRequest` → `AnswerAck` (sent after commit)
 * - `PUT  /mytests/{testId}/review` (empty body) → `PlayerState` (finish; once, idempotent)
 * - `GET  /mytests/{testId}/state` → `PlayerState`
 * - `GET  /mytests/{testId}/items` → `PlayerItemsResponse`
 * - `GET  /mytests/{testId}/files/{fileId}` → the bytes of an image a statement of the
 *   student's attempt shows (pass it as `renderStatement`'s `imageSrc`).
 *
 * Calls (staff: platform admins, the exam's admin teachers and staff; others who see the
 * competition get 403 OPERATION_NOT_PERMITTED, the rest 404; a student without an attempt 404):
 * - `POST /tests/{testId}/students/{studentId}/extra-time` body `ExtraTimeRequest` → `Incident`
 *   (409 TEST_ALREADY_REVIEWED when the attempt is over: reopen it instead)
 * - `POST /tests/{testId}/students/{studentId}/reopen` body `ReopenRequest` → `Incident`
 * Both are audited and change what the student's next state call returns.
 *
 * Errors: 404 NOT_FOUND (a test that is not the student's: not registered for the phase, grade
 * not among the test's grades, not published, or another student's attempt); 409
 * TEST_NOT_ACTIVE (starting outside the test window; answering or finishing a test not
 * started; answering once the deadline plus the grace has passed — the server then finalises
 * the attempt at its deadline, and later answers keep getting TEST_NOT_ACTIVE); 409
 * TEST_ALREADY_REVIEWED (starting again after the attempt is over, or answering after the
 * student finished); 403 OPERATION_NOT_PERMITTED (starting or answering a hybrid test:
 * its answers are files, see upload-mgmt); 400 VALIDATION_FAILED (bad body; `termsAccepted`
 * missing on a first start gives `required` at path `termsAccepted`; an answer whose shape does
 * not fit the item, or an item not in the attempt, gives `invalid` at `submittedAnswer` or
 * `itemId`).
 */

export const PLAYER_TEST_TYPES = ['online', 'hybrid'] as const;
export type PlayerTestType = (typeof PLAYER_TEST_TYPES)[number];

/**
 * A test's state for the student (My tests):
 * - `upcoming`: the window has not opened yet;
 * - `open`: inside the window and not started (online) / uploads accepted (hybrid);
 * - `in_progress`: an online attempt is running (its deadline plus grace has not passed);
 * - `finished`: the attempt is over (or a hybrid window ended), no points known yet;
 * - `result_available`: finished with points known (`score` set; `scoreState` says whether
 *   they are final, provisional or still partly waiting for marking);
 * - `missed`: the window closed and the student never started (online).
 */
export const MY_TEST_STATES = [
  'upcoming',
  'open',
  'in_progress',
  'finished',
  'result_available',
  'missed',
] as const;
export type MyTestState = (typeof MY_TEST_STATES)[number];

/** `GET /mytests` entry, ordered by start date, then name. */
export const myTestSchema = z.object({
  testId: z.string(),
  name: z.string(),
  subject: z.string(),
  /** Ascending; the title is `${subject} - Clasa ${grades.join(', ')}` (99 = Absolvent). */
  grades: z.array(z.number()),
  type: z.enum(PLAYER_TEST_TYPES),
  examId: z.string(),
  examName: z.string(),
  editionId: z.string(),
  editionName: z.string(),
  phaseId: z.string(),
  phaseName: z.string(),
  /** The window, ISO 8601 instants. */
  startDate: z.string(),
  endDate: z.string(),
  /** Minutes. */
  duration: z.number(),
  totalScore: z.number(),
  state: z.enum(MY_TEST_STATES),
  /**
   * Set when `state` is `result_available`: the points already known, and whether they are
   * final, provisional, or still waiting for `awaitingItems` items to be marked.
   */
  score: z.number().nullable(),
  scoreState: z.enum(RESULT_STATES).nullable(),
  awaitingItems: z.number(),
  /** Remaining whole seconds when `state` is `in_progress`, else null. */
  timer: z.number().nullable(),
  finishedAt: z.string().nullable(),
});
export type MyTest = z.infer<typeof myTestSchema>;
export const myTestsResponseSchema = z.array(myTestSchema);

export {
  EVENT_STREAM_OPEN_SPREAD_MS,
  MAX_OPEN_ANSWER_LENGTH,
  MAX_TYPED_ANSWER_LENGTH,
} from './player-values.js';

/**
 * What a student answers: option indices in the question's own order (single: zero or one,
 * multiple: any distinct), the typed value as text (numeric; compared numerically, `,` taken
 * as a decimal point), free text (open), or null to clear the answer.
 */
export const submittedAnswerSchema = z.union([
  z
    .array(z.number().int('invalid').min(0, 'invalid').max(MAX_ANSWERS, 'invalid'), {
      error: 'invalid',
    })
    .max(MAX_ANSWERS, 'invalid')
    .refine((a) => new Set(a).size === a.length, 'invalid'),
  z.string({ error: 'invalid' }).max(MAX_OPEN_ANSWER_LENGTH, 'too_long'),
  z.null(),
]);
export type SubmittedAnswer = z.infer<typeof submittedAnswerSchema>;

/**
 * An item of the student's attempt, in their stable shuffled order. Options stay in the
 * question's own order (a screen may shuffle them for display; answers are indices into this
 * list). Never the correct answer while the attempt runs.
 */
export const playerItemSchema = z.object({
  itemId: z.string(),
  /** 1-based position in this student's order ('Întrebarea N'). */
  position: z.number(),
  itemQ: z.string(),
  itemType: z.enum(ITEM_TYPES),
  itemAnswers: z.array(z.string()),
  /** An image shown under the statement, via `GET /mytests/{testId}/files/{fileId}`. */
  imageFileId: z.string().nullable(),
  /** What the item is worth. */
  score: z.number(),
  /** The stored answer (null: none yet) and the client sequence number it came with (0: none). */
  submittedAnswer: submittedAnswerSchema,
  seq: z.number(),
});
export type PlayerItem = z.infer<typeof playerItemSchema>;

/**
 * An item once the attempt is over AND the test's window has closed (so nobody still writing
 * can learn them): the correct answer and the points this answer earned.
 */
export const playerResultItemSchema = playerItemSchema.extend({
  itemCorrectAnswers: z.union([z.array(z.number()), z.string()]).nullable(),
  /** The points this answer earned (null while it awaits marking). */
  awardedScore: z.number().nullable(),
  scoreState: z.enum(RESULT_STATES).nullable(),
});
export type PlayerResultItem = z.infer<typeof playerResultItemSchema>;

/** `POST /mytests/{testId}` body (may be empty on a repeated start). */
export const startRequestSchema = z
  .object({
    /** The terms of SPEC.md §4, accepted on the screen; required when starting the first time. */
    termsAccepted: z.literal(true, { error: 'required' }).optional(),
  })
  .strict();
export type StartRequest = z.infer<typeof startRequestSchema>;

/** Who ended an attempt: the student, the server at the deadline, staff, or closing the phase. */
export const FINISHED_BY = ['student', 'sweeper', 'staff', 'closed'] as const;

/** Attempt states as the player sees them. */
export const ATTEMPT_STATES = ['not_started', 'in_progress', 'finished'] as const;
export type AttemptState = (typeof ATTEMPT_STATES)[number];

/** `POST /mytests/{testId}`: the running attempt. */
export const startResponseSchema = z.object({
  testId: z.string(),
  attemptId: z.string(),
  state: z.literal('in_progress'),
  /** Remaining whole seconds at `serverNow`. */
  timer: z.number(),
  subject: z.string(),
  grade: z.array(z.number()),
  /** The test's own name; the screen's title is built from `subject` and `grade`. */
  testName: z.string(),
  shuffledStudentItems: z.array(playerItemSchema),
  startedAt: z.string(),
  /** When answers stop being accepted (the grace for answers in flight comes on top). */
  deadline: z.string(),
  serverNow: z.string(),
});
export type StartResponse = z.infer<typeof startResponseSchema>;

/**
 * `PUT /mytests/{testId}` body: SPEC.md §7's `{itemId, submittedAnswer}`, and `seq`, the client's
 * increasing sequence number for the attempt, which orders writes that arrive out of order (the
 * player always sends it). An answer without `seq` is taken as newer than whatever is stored for
 * that item.
 */
export const answerRequestSchema = z
  .object({
    itemId: z.uuid({ error: 'invalid' }),
    submittedAnswer: submittedAnswerSchema,
    seq: z.number().int('invalid').min(1, 'invalid').max(2_000_000_000, 'invalid').optional(),
  })
  .strict();
export type AnswerRequest = z.infer<typeof answerRequestSchema>;
/** An answer with its place in the attempt's order of writes. */
export type SequencedAnswer = AnswerRequest & { seq: number };

/**
 * The acknowledgement, sent only after the answer is committed. `seq` is the stored one: when a
 * request's seq is lower than or equal to the stored seq nothing changes and the stored seq
 * comes back, so a client can drop every pending write with `seq <= ack.seq` for that item.
 */
export const answerAckSchema = z.object({
  itemId: z.string(),
  seq: z.number(),
  savedAt: z.string(),
  /**
   * The attempt's deadline as it stands now: extra time given or a reopen reaches the
   * student's timer with their next saved answer.
   */
  deadline: z.string(),
});
export type AnswerAck = z.infer<typeof answerAckSchema>;

/** The test's own window at `serverNow`: a start is accepted only while `open`. */
export const TEST_WINDOWS = ['upcoming', 'open', 'closed'] as const;
export type TestWindow = (typeof TEST_WINDOWS)[number];

/**
 * `GET /mytests/{testId}/state` and the answer to `PUT …/review`. An attempt whose deadline
 * plus grace has passed is finalised by the server before it answers, so `in_progress` always
 * means answers are still accepted.
 */
export const playerStateSchema = z.object({
  testId: z.string(),
  state: z.enum(ATTEMPT_STATES),
  window: z.enum(TEST_WINDOWS),
  /** Remaining whole seconds (0 unless in progress). */
  timer: z.number(),
  /** Null until started. */
  deadline: z.string().nullable(),
  serverNow: z.string(),
  /**
   * Online, once finished: the points already known; `scoreState` says whether they are
   * final, provisional (the phase's appeal window is still ahead or open) or still waiting for
   * `awaitingItems` open items to be marked. Null before.
   */
  score: z.number().nullable(),
  scoreState: z.enum(RESULT_STATES).nullable(),
  awaitingItems: z.number(),
  finishedAt: z.string().nullable(),
  /** `sweeper`: the time ran out; `closed`: the phase was closed while it ran. */
  finishedBy: z.enum(FINISHED_BY).nullable(),
});
export type PlayerState = z.infer<typeof playerStateSchema>;

/**
 * `GET /mytests/{testId}/items`: the attempt's items with the stored answers. After the
 * attempt is over and the window has closed, `reviewed` is true and items carry
 * `itemCorrectAnswers` and `awardedScore`.
 */
export const playerItemsResponseSchema = z.object({
  testId: z.string(),
  state: z.enum(ATTEMPT_STATES),
  reviewed: z.boolean(),
  items: z.array(
    playerItemSchema.extend({
      itemCorrectAnswers: playerResultItemSchema.shape.itemCorrectAnswers.optional(),
      awardedScore: playerResultItemSchema.shape.awardedScore.optional(),
      scoreState: playerResultItemSchema.shape.scoreState.optional(),
    }),
  ),
});
export type PlayerItemsResponse = z.infer<typeof playerItemsResponseSchema>;

// ---------------------------------------------------------------------------------------
// Incidents (staff)

export const MAX_EXTRA_MINUTES = 24 * 60;
export const MAX_REOPEN_SECONDS = 24 * 60 * 60;

/** Extra minutes for one running attempt (added to its deadline). */
export const extraTimeRequestSchema = z
  .object({
    minutes: z
      .number({ error: 'required' })
      .int('invalid')
      .positive('not_positive')
      .max(MAX_EXTRA_MINUTES, 'invalid'),
    reason: requiredMultilineText(MAX_TEXT_LENGTH),
  })
  .strict();
export type ExtraTimeRequest = z.infer<typeof extraTimeRequestSchema>;

/**
 * Reopen a finished attempt after a proven incident: it runs again for exactly
 * `remainingSeconds` from now (past the test's end if need be), with its answers kept. On an
 * attempt still running it sets the remaining time to exactly that.
 */
export const reopenRequestSchema = z
  .object({
    remainingSeconds: z
      .number({ error: 'required' })
      .int('invalid')
      .positive('not_positive')
      .max(MAX_REOPEN_SECONDS, 'invalid'),
    reason: requiredMultilineText(MAX_TEXT_LENGTH),
  })
  .strict();
export type ReopenRequest = z.infer<typeof reopenRequestSchema>;

/** The attempt after an incident call, as the student's next state call will see it. */
export const incidentSchema = z.object({
  attemptId: z.string(),
  testId: z.string(),
  studentId: z.string(),
  state: z.enum(['in_progress', 'finished']),
  deadline: z.string(),
  timer: z.number(),
  extraSeconds: z.number(),
  serverNow: z.string(),
});
export type Incident = z.infer<typeof incidentSchema>;
