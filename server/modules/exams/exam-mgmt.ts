import type { Db } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { editionsService } from './editions.service.js';
import { enrolmentService } from './enrolment.service.js';
import { examsService } from './exams.service.js';
import { openExamsService } from './open-exams.service.js';
import { type PhaseReopenDeps, phaseReopenService } from './phase-reopen.js';
import { phaseStudentsService } from './phase-students.service.js';
import { type PhasesDeps, phasesService } from './phases.service.js';

export type ExamMgmtDeps = {
  db: Db;
  clock: Clock;
  /** The player's: ends a phase's running attempts when it closes. */
  endRunningAttempts: PhasesDeps['endRunningAttempts'];
  /** The test-review module's: checks and assigns the marking when a review starts. */
  beginReview: PhasesDeps['beginReview'];
  /** The test-review module's: what is not final when a phase closes, and the accepted rest. */
  settleOpenScores: PhasesDeps['settleOpenScores'];
  /** The rankings module's: standings kept at each close, compared when it closes again. */
  settleStandings: PhasesDeps['settleStandings'];
  keepClosedStandings: PhaseReopenDeps['keepClosedStandings'];
  /** The diplomas module's: diplomas already printed for students whose result changed. */
  findChangedDiplomas: PhasesDeps['findChangedDiplomas'];
};

/** The exam-mgmt services (SPEC.md §7), each with only what it needs. */
export function examMgmt({
  db,
  clock,
  endRunningAttempts,
  beginReview,
  settleOpenScores,
  settleStandings,
  keepClosedStandings,
  findChangedDiplomas,
}: ExamMgmtDeps) {
  return {
    exams: examsService({ db }),
    editions: editionsService({ db }),
    phases: phasesService({
      db,
      clock,
      endRunningAttempts,
      beginReview,
      settleOpenScores,
      settleStandings,
      findChangedDiplomas,
    }),
    phaseReopen: phaseReopenService({ db, clock, keepClosedStandings }),
    phaseStudents: phaseStudentsService({ db }),
    enrolment: enrolmentService({ db, clock }),
    openExams: openExamsService({ db }),
  };
}

export type ExamMgmt = ReturnType<typeof examMgmt>;
