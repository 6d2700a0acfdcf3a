import type { Question, QuestionTeachersInput } from '../../../../shared/schemas/questions.js';

/** Who marks a question: its mediator ('' for none) and its graders (reviewers). */
export type Markers = Pick<Question, 'mediatorTeacher' | 'gradingTeachers'>;

/** The markers' pages: `…/mediator` and `…/corectori`. */
export type MarkerRole = 'mediator' | 'reviewers';

/** Graders and mediators a question needs before a hybrid review starts (SPEC.md §4). */
export const GRADERS_NEEDED = 2;

/**
 * The bodies of `POST|DELETE …/items/{questionId}/teachers` (SPEC.md §5): setting a mediator
 * keeps the graders; adding a grader appends it and keeps the mediator; removing the mediator
 * sends an empty grading list; removing a grader sends an empty mediator and that one teacher.
 */
export const setMediatorBody = (q: Markers, teacherId: string): QuestionTeachersInput => ({
  mediatorTeacher: teacherId,
  gradingTeachers: [...q.gradingTeachers],
});

export const addGraderBody = (q: Markers, teacherId: string): QuestionTeachersInput => ({
  mediatorTeacher: q.mediatorTeacher,
  gradingTeachers: [...q.gradingTeachers.filter((id) => id !== teacherId), teacherId],
});

export const removeMediatorBody = (q: Markers): QuestionTeachersInput => ({
  mediatorTeacher: q.mediatorTeacher,
  gradingTeachers: [],
});

export const removeGraderBody = (teacherId: string): QuestionTeachersInput => ({
  mediatorTeacher: '',
  gradingTeachers: [teacherId],
});

/**
 * Why a teacher cannot take this role on the question, or null when they can: the mediator
 * settles the graders' disagreements, so nobody is both; new markers must be active.
 */
export function whyNotMarker(
  q: Markers,
  role: MarkerRole,
  teacher: { _id?: string; state?: string },
): 'current' | 'otherRole' | 'inactive' | null {
  const id = teacher._id ?? '';
  const isMediator = q.mediatorTeacher === id;
  const isGrader = q.gradingTeachers.includes(id);
  if (role === 'mediator' ? isMediator : isGrader) return 'current';
  if (role === 'mediator' ? isGrader : isMediator) return 'otherRole';
  if (teacher.state !== undefined && teacher.state !== 'active') return 'inactive';
  return null;
}

/** The success and failure message keys of SPEC.md §8 for one marker change. */
export function markerMessages(role: MarkerRole, change: 'add' | 'remove') {
  const who = role === 'mediator' ? 'mediator' : 'reviewer';
  const verb = change === 'add' ? 'update' : 'delete';
  return {
    success: `msg_${verb}_question_${who}_success`,
    error: `msg_${verb}_question_${who}_error`,
  };
}
