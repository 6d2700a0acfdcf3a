import type { PlayerItem, SubmittedAnswer } from '../../../../../shared/schemas/player.js';
import type { PendingAnswer } from './answer-store.js';

/**
 * An item's answer on screen. `pending`: given here, not yet acknowledged by the server;
 * `onDevice`: that pending answer is also in the device's storage; `rejected`: the server
 * refused it for good (it will not be sent again), `refusal` saying why when it said (a field
 * code such as `invalid_characters` or `too_long`).
 */
export type AnswerEntry = {
  submittedAnswer: SubmittedAnswer;
  seq: number;
  state: 'saved' | 'pending' | 'rejected';
  onDevice: boolean;
  refusal?: string;
};

export type Restored = {
  entries: Map<string, AnswerEntry>;
  /** Answers of this device newer than the server's: shown and sent again. */
  resend: PendingAnswer[];
  /** Answers of this device the server already has (or newer): forgotten. */
  stale: PendingAnswer[];
  /** Where the attempt's sequence numbers continue from. */
  lastSeq: number;
};

/**
 * Merges the server's stored answers with those kept on this device (after a reload or a
 * crash): for each item the higher sequence number wins, so an answer given offline is not
 * lost and an older copy never overwrites what the server acknowledged.
 */
export function restoreAnswers(
  serverItems: readonly Pick<PlayerItem, 'itemId' | 'submittedAnswer' | 'seq'>[],
  local: readonly PendingAnswer[],
): Restored {
  const entries = new Map<string, AnswerEntry>();
  let lastSeq = 0;
  for (const item of serverItems) {
    lastSeq = Math.max(lastSeq, item.seq);
    if (item.seq > 0 || item.submittedAnswer !== null) {
      entries.set(item.itemId, {
        submittedAnswer: item.submittedAnswer,
        seq: item.seq,
        state: 'saved',
        onDevice: false,
      });
    }
  }
  const inAttempt = new Set(serverItems.map((i) => i.itemId));
  const resend: PendingAnswer[] = [];
  const stale: PendingAnswer[] = [];
  for (const answer of local) {
    lastSeq = Math.max(lastSeq, answer.seq);
    const server = entries.get(answer.itemId);
    if (!inAttempt.has(answer.itemId) || (server && server.seq >= answer.seq)) {
      stale.push(answer);
      continue;
    }
    resend.push(answer);
    entries.set(answer.itemId, {
      submittedAnswer: answer.submittedAnswer,
      seq: answer.seq,
      state: 'pending',
      onDevice: true,
    });
  }
  resend.sort((a, b) => a.seq - b.seq);
  return { entries, resend, stale, lastSeq };
}

/** Whether an item counts as answered (an empty choice or a cleared field does not). */
export const isAnswered = (entry: AnswerEntry | undefined) =>
  entry !== undefined &&
  entry.submittedAnswer !== null &&
  (Array.isArray(entry.submittedAnswer)
    ? entry.submittedAnswer.length > 0
    : entry.submittedAnswer.trim() !== '');
