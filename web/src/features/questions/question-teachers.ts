import type { Question, QuestionTeachersInput } from '../../../../shared/schemas/questions.js';

/** Who marks a question: its mediator ('' for none) and its reviewers (reviewers). */
export type QuestionTeachers = Pick<Question, 'mediatorTeacher' | 'gradingTeachers'>;

/** The pages of a question's teachers: `…/mediator` and `…/corectori`. */
export type QuestionTeacherRole = 'mediator' | 'reviewers';

/** Reviewers and mediators a question needs before a hybrid review starts (SPEC.md §4). */
export const REVIEWERS_NEEDED = 2;

/**
 * The bodies of `POST|DELETE …/items/{questionId}/teachers` (SPEC.md §5): setting a mediator
 * keeps the reviewers; adding a reviewer appends it and keeps the mediator; removing the mediator
 * sends an empty grading list; removing a reviewer sends an empty mediator and that one teacher.
 */
export const setMediatorBody = (q: QuestionTeachers, teacherId: string): QuestionTeachersInput => ({
  mediatorTeacher: teacherId,
  gradingTeachers: [...q.gradingTeachers],
});

export const addReviewerBody = (q: QuestionTeachers, teacherId: string): QuestionTeachersInput => ({
  mediatorTeacher: q.mediatorTeacher,
  gradingTeachers: [...q.gradingTeachers.filter((id) => id !== teacherId), teacherId],
});

export const removeMediatorBody = (q: QuestionTeachers): QuestionTeachersInput => ({
  mediatorTeacher: q.mediatorTeacher,
  gradingTeachers: [],
});

export const removeReviewerBody = (teacherId: string): QuestionTeachersInput => ({
  mediatorTeacher: '',
  gradingTeachers: [teacherId],
});

/**
 * Why a teacher cannot take this role on the question, or null when they can: the mediator
 * settles the reviewers' disagreements, so nobody is both; new the question's teachers must be active.
 */
export function whyNotQuestionTeacher(
  q: QuestionTeachers,
  role: QuestionTeacherRole,
  teacher: { _id?: string; state?: string },
): 'current' | 'otherRole' | 'inactive' | null {
  const id = teacher._id ?? '';
  const isMediator = q.mediatorTeacher === id;
  const isReviewer = q.gradingTeachers.includes(id);
  if (role === 'mediator' ? isMediator : isReviewer) return 'current';
  if (role === 'mediator' ? isReviewer : isMediator) return 'otherRole';
  if (teacher.state !== undefined && teacher.state !== 'active') return 'inactive';
  return null;
}

/** The success and failure message keys of SPEC.md §8 for one change of a question's teachers. */
export function questionTeacherMessages(role: QuestionTeacherRole, change: 'add' | 'remove') {
  const who = role === 'mediator' ? 'mediator' : 'reviewer';
  const verb = change === 'add' ? 'update' : 'delete';
  return {
    success: `msg_${verb}_question_${who}_success`,
    error: `msg_${verb}_question_${who}_error`,
  };
}
