/**
 * Plain values of the player that its pages need without the player's schemas, whose zod they
 * would bring to every student's first load.
 */

/** Longest typed answer to a numeric question (the answer write refuses longer). */
export const MAX_TYPED_ANSWER_LENGTH = 50;

/** Longest free-text answer to an open question. */
export const MAX_OPEN_ANSWER_LENGTH = 5000;

/**
 * A player opens the attempt's event stream at a random moment within this long of loading: a
 * whole exam starts in the same minute, and the streams must not all open in the burst of
 * starts (meanwhile every saved answer and the 30-second state check carry the deadline).
 */
export const EVENT_STREAM_OPEN_SPREAD_MS = 20_000;
