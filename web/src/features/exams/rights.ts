import type { Exam } from '../../../../shared/schemas/exams.js';

/**
 * What the screens offer, from the caller's role on the competition (`myRole`). The server
 * decides for itself (exams.policy.ts); these only hide buttons it would refuse.
 */
export const canManage = (exam: Pick<Exam, 'myRole'>) =>
  exam.myRole === 'admin' || exam.myRole === 'examAdmin';

/** The commission and the managers admit or reject students. */
export const canSetResults = (exam: Pick<Exam, 'myRole'>) =>
  canManage(exam) || exam.myRole === 'staff';

/** Managers enrol anyone; staff and coordinators their own students. */
export const canEnrol = (exam: Pick<Exam, 'myRole'>) =>
  canSetResults(exam) || exam.myRole === 'coordinator';
