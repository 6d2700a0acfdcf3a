// The exam-mgmt module's public face: who may see and manage a competition (the rights other
// modules check before they act), the path checks of exam → edition → phase, and the hold on a
// student's registration that a start or an upload takes; a phase's decisions for the rankings
// module's rules.
export { type ExamMgmt, examMgmt } from './exam-mgmt.js';
export {
  type EditionContext,
  type ExamContext,
  loadExamAccess,
  type PhaseContext,
  requireEdition,
  requireExam,
  requirePhase,
} from './exams.access.js';
export {
  canManageExam,
  canSeeExam,
  canSetResults,
  type ExamAccess,
  NO_ACCESS,
  seesWholeExam,
} from './exams.policy.js';
// The competitions an actor may see, as SQL on `exams` (the list's scope; the search uses it).
export { examScopeSql } from './exams.repo.js';
export { examMgmtRoutes } from './exams.routes.js';
export { examsPersonalData } from './personal-data.js';
export { syncAllPublished } from './phase-publishing.js';
export {
  findParticipants,
  findPhasePath,
  holdOpenPhase,
  writePhaseResults,
} from './phase-results.js';
export { withDefaultGrade } from './phase-students.service.js';
export type { ReviewedPhase } from './phases.service.js';
export { holdRegistration } from './registration.js';
