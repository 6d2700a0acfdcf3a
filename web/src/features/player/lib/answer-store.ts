import type { PlayerItem, SubmittedAnswer } from '../../../../../shared/schemas/player.js';

/** An answer given on this device and not yet acknowledged by the server. */
export type PendingAnswer = { itemId: string; submittedAnswer: SubmittedAnswer; seq: number };

/**
 * What the player keeps on the device for one attempt, so a reload (even without network)
 * finds the test as it was: the items and the server's deadline as last seen.
 */
export type AttemptSnapshot = {
  testId: string;
  attemptId: string;
  title: { subject: string; grades: number[] };
  items: PlayerItem[];
  /** The server's deadline (ISO 8601). */
  deadline: string;
  /** Server clock − this computer's clock when last measured, in ms. */
  offsetMs: number;
};

/**
 * The device storage of one attempt (IndexedDB in the browser, memory in tests and where the
 * browser refuses IndexedDB). Only the newest pending answer of an item matters: `put` keeps
 * the higher seq, `ack` removes an item's answer only if the acknowledged seq covers it.
 */
export type AnswerStore = {
  /** False when answers live only in memory (a reload would lose them). */
  readonly isDurable: boolean;
  list(): Promise<PendingAnswer[]>;
  put(answer: PendingAnswer): Promise<void>;
  ack(itemId: string, seq: number): Promise<void>;
  readSnapshot(): Promise<AttemptSnapshot | undefined>;
  writeSnapshot(snapshot: AttemptSnapshot): Promise<void>;
  /** Forgets the attempt (finished: nothing left to send). */
  clear(): Promise<void>;
};

/** An AnswerStore in memory: the fallback without IndexedDB, and the store of unit tests. */
export function memoryAnswerStore(): AnswerStore {
  const pending = new Map<string, PendingAnswer>();
  let snapshot: AttemptSnapshot | undefined;
  return {
    isDurable: false,
    list: async () => [...pending.values()].map((a) => ({ ...a })),
    async put(answer) {
      const kept = pending.get(answer.itemId);
      if (!kept || kept.seq < answer.seq) pending.set(answer.itemId, { ...answer });
    },
    async ack(itemId, seq) {
      const kept = pending.get(itemId);
      if (kept && kept.seq <= seq) pending.delete(itemId);
    },
    readSnapshot: async () => snapshot && structuredClone(snapshot),
    async writeSnapshot(next) {
      snapshot = structuredClone(next);
    },
    async clear() {
      pending.clear();
      snapshot = undefined;
    },
  };
}
