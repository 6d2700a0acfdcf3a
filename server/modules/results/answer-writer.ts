import type { Database } from '../../db/client.js';
import { groupCommit } from '../../lib/group-commit.js';
import {
  type AnswerUpsertParams,
  type AnswerWritten,
  answerStatements,
} from './answer-write.hot.js';

/**
 * Writes exam day's answers grouped (see `groupCommit`): answers that arrive while others are
 * being written go together, one statement and one commit for the group. Each answer is
 * resolved after its group committed, with its own row, or null when nothing was written (the
 * player then finds out why). One answer per token and item in a group: the statement cannot
 * touch one answer row twice.
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
): (params: AnswerUpsertParams) => Promise<AnswerWritten | null> {
  const statements = answerStatements(database);
  return groupCommit<AnswerUpsertParams, AnswerWritten | null>({
    runGroup: (group) => statements.many(group),
    runAlone: (params) => statements.one(params),
    keyOf: ([tokenHash, , , testId, itemId]) => `${tokenHash} ${testId} ${itemId}`,
    inFlight,
    maxGroup,
    onGroup,
  });
}
