// The results module's public face: the one writer of scores (DESIGN.md). The player hands it
// answers (exam day's answer write, an ended attempt's items), uploads hand it hybrid pages,
// test-mgmt a change of an item's worth; admission, rankings and diplomas read its totals.

export type { AnswerUpsertParams, AnswerWritten } from './answer-write.hot.js';
export { warmAnswerStatements } from './answer-write.hot.js';
export { answerWriter } from './answer-writer.js';
export { resultsPersonalData } from './personal-data.js';
export {
  type EndedAttempt,
  findItemScores,
  findTestResults,
  hasMarkedItems,
  type ItemScore,
  type MarkedAnswer,
  openHybridAnswer,
  type PhaseTiming,
  phaseCompleteness,
  type ResultKey,
  recordMarkedScore,
  rescoreTest,
  resultState,
  scoreEndedAttempts,
  setHybridAnswerFiles,
  settleUnhandedItems,
  type TestResult,
  withdrawAttemptScores,
} from './results.service.js';
export { autoOutcome, parseTypedNumber, scoreAnswer, totalScore } from './scoring.js';
