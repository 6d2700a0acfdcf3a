import type { UploadState } from '../../../shared/schemas/uploads.js';
import type { Actor } from '../../lib/auth-guard.js';
import { AppError, forbidden } from '../../lib/errors.js';
import { type ExamAccess, seesWholeExam } from '../exams/index.js';

/**
 * Who may see and change hybrid answers. Scope (404) comes first: teachers through
 * exams.access.ts `requirePhase` (a role on the exam, a coordinator only in their edition),
 * students through their registration in the phase. These decide within scope.
 */

/** How the caller stands on one test: its student, or a teacher who enters or only views. */
export type TestRole = 'student' | 'manager' | 'viewer';

/** Platform admins and the exam's admin teachers enter answers for students who wrote on paper. */
export function canEnterAnswers(access: ExamAccess): boolean {
  return access.isAdmin || access.isExamAdmin;
}

/** Teachers with a role on the exam view answers; coordinators only their own students'. */
export function ownerScope(actor: Actor, access: ExamAccess): string | undefined {
  return seesWholeExam(access) ? undefined : actor.id;
}

/**
 * Correct answers: the exam's admins and staff always; a coordinator (who teaches students
 * taking the test) only once it has ended; a student never through this service.
 */
export function seesCorrectAnswers(
  role: TestRole,
  access: ExamAccess | undefined,
  testEnded: boolean,
): boolean {
  if (role === 'student' || !access) return false;
  return seesWholeExam(access) || testEnded;
}

type PhaseState = { phaseType: 'online' | 'hybrid'; phaseState: 'open' | 'closed' };
type TestWindow = { published: boolean; startDate: Date; endDate: Date };

/**
 * Whether the caller may add or remove files at `now`, else why not. Nobody once the phase
 * is closed or its review has started; students only inside a published test's window;
 * staff who enter paper answers at any time before that.
 */
export function uploadStateFor(
  role: TestRole,
  test: PhaseState & TestWindow & { reviewStarted: boolean },
  now: Date,
): UploadState {
  if (test.phaseType !== 'hybrid') return 'online';
  if (role === 'viewer') return 'view_only';
  if (test.phaseState === 'closed') return 'closed';
  if (test.reviewStarted) return 'review_started';
  if (role === 'student') {
    if (!test.published || now < test.startDate) return 'not_started';
    if (now > test.endDate) return 'ended';
  }
  return 'open';
}

/** The error a refused upload or deletion answers with. */
export function assertUploadOpen(state: UploadState): void {
  switch (state) {
    case 'open':
      return;
    case 'online':
      throw new AppError('CLIENT_ERROR', 'Only hybrid tests take uploaded answers');
    case 'view_only':
      throw forbidden();
    case 'closed':
      throw new AppError('PHASE_CLOSED', 'The phase is closed');
    case 'review_started':
      throw new AppError('PHASE_CLOSED', 'The review has started: answers can no longer change', {
        reason: 'review_started',
      });
    case 'not_started':
    case 'ended':
      throw new AppError('TEST_NOT_ACTIVE', 'The test is not open', { reason: state });
  }
}

/** A student never changes an answer staff entered from their paper. */
export function assertMayChangeAnswer(role: TestRole, answer: { enteredBy: string | null }): void {
  if (role === 'student' && answer.enteredBy !== null) throw forbidden();
}
