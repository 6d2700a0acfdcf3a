import type { Database } from '../../db/client.js';
import {
  type AnswerUpsertParams,
  type AnswerWritten,
  answerStatements,
} from './player.hot.repo.js';

type Waiting = {
  params: AnswerUpsertParams;
  resolve: (written: AnswerWritten | null) => void;
  reject: (err: unknown) => void;
};

/**
 * Writes answers grouped as in a database's group commit: at most `inFlight` statements run at
 * once; answers that arrive meanwhile wait and go together in the next one (at most
 * `maxGroup`), one commit for all of them. At a quiet moment an answer goes alone and at once;
 * at exam day's rate the database parses, plans and commits once per group instead of once per
 * answer. Each answer is resolved only after its group committed, with its own row or null,
 * exactly as if it had been written alone.
 */
export function answerWriter(
  database: Pick<Database, 'db' | 'pool'>,
  {
    inFlight = 4,
    maxGroup = 64,
    onGroup,
  }: {
    inFlight?: number;
    maxGroup?: number;
    /** Told each group's size and whether it went as one statement (tests, metrics). */
    onGroup?: (size: number, together: boolean) => void;
  } = {},
) {
  const statements = answerStatements(database);
  let waiting: Waiting[] = [];
  let running = 0;

  async function writeAlone(answer: Waiting) {
    try {
      answer.resolve(await statements.one(answer.params));
    } catch (err) {
      answer.reject(err);
    }
  }

  async function writeGroup(group: Waiting[]) {
    if (group.length === 1) {
      onGroup?.(1, true);
      return writeAlone(group[0] as Waiting);
    }
    let outcomes: (AnswerWritten | null)[];
    try {
      outcomes = await statements.many(group.map((answer) => answer.params));
    } catch {
      // One bad answer (or one answer row reached twice through two sessions) must not fail
      // the others: each goes again on its own, in arrival order, and gets its own outcome.
      onGroup?.(group.length, false);
      for (const answer of group) await writeAlone(answer);
      return;
    }
    onGroup?.(group.length, true);
    group.forEach((answer, i) => {
      answer.resolve(outcomes[i] ?? null);
    });
  }

  /** The next group: first come first, one answer per token and item. */
  function takeGroup(): Waiting[] {
    const group: Waiting[] = [];
    const later: Waiting[] = [];
    const keys = new Set<string>();
    for (const answer of waiting) {
      const [tokenHash, , , testId, itemId] = answer.params;
      const key = `${tokenHash} ${testId} ${itemId}`;
      if (group.length < maxGroup && !keys.has(key)) {
        keys.add(key);
        group.push(answer);
      } else {
        later.push(answer);
      }
    }
    waiting = later;
    return group;
  }

  function pump() {
    while (running < inFlight && waiting.length > 0) {
      const group = takeGroup();
      running += 1;
      void writeGroup(group).finally(() => {
        running -= 1;
        pump();
      });
    }
  }

  return (params: AnswerUpsertParams): Promise<AnswerWritten | null> =>
    new Promise((resolve, reject) => {
      waiting.push({ params, resolve, reject });
      pump();
    });
}
