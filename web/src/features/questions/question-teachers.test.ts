import { describe, expect, it } from 'vitest';
import {
  addReviewerBody,
  questionTeacherMessages,
  removeMediatorBody,
  removeReviewerBody,
  setMediatorBody,
  whyNotQuestionTeacher,
} from './question-teachers.js';

const q = { mediatorTeacher: 'm1', gradingTeachers: ['g1'] };

describe('question questionTeachers (SPEC.md §5)', () => {
  it('append a reviewer and keep the mediator', () => {
    expect(addReviewerBody(q, 'g2')).toEqual({
      mediatorTeacher: 'm1',
      gradingTeachers: ['g1', 'g2'],
    });
    expect(addReviewerBody({ mediatorTeacher: '', gradingTeachers: [] }, 'g1')).toEqual({
      mediatorTeacher: '',
      gradingTeachers: ['g1'],
    });
  });

  it('set a mediator and keep the reviewers', () => {
    expect(setMediatorBody(q, 'm2')).toEqual({ mediatorTeacher: 'm2', gradingTeachers: ['g1'] });
  });

  it('remove the mediator with an empty grading list', () => {
    expect(removeMediatorBody(q)).toEqual({ mediatorTeacher: 'm1', gradingTeachers: [] });
  });

  it('remove a reviewer with an empty mediator and only that teacher', () => {
    expect(removeReviewerBody('g1')).toEqual({ mediatorTeacher: '', gradingTeachers: ['g1'] });
  });

  it('keep one teacher out of both roles, and new questionTeachers active', () => {
    expect(whyNotQuestionTeacher(q, 'mediator', { _id: 'm1', state: 'active' })).toBe('current');
    expect(whyNotQuestionTeacher(q, 'mediator', { _id: 'g1', state: 'active' })).toBe('otherRole');
    expect(whyNotQuestionTeacher(q, 'reviewers', { _id: 'm1', state: 'active' })).toBe('otherRole');
    expect(whyNotQuestionTeacher(q, 'reviewers', { _id: 'x', state: 'inactive' })).toBe('inactive');
    expect(whyNotQuestionTeacher(q, 'reviewers', { _id: 'x', state: 'active' })).toBeNull();
  });

  it('name the message keys of SPEC.md §8', () => {
    expect(questionTeacherMessages('mediator', 'add')).toEqual({
      success: 'msg_update_question_mediator_success',
      error: 'msg_update_question_mediator_error',
    });
    expect(questionTeacherMessages('reviewers', 'remove').error).toBe(
      'msg_delete_question_reviewer_error',
    );
  });
});
