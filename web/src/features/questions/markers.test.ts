import { describe, expect, it } from 'vitest';
import {
  addGraderBody,
  markerMessages,
  removeGraderBody,
  removeMediatorBody,
  setMediatorBody,
  whyNotMarker,
} from './markers.js';

const q = { mediatorTeacher: 'm1', gradingTeachers: ['g1'] };

describe('question markers (SPEC.md §5)', () => {
  it('append a grader and keep the mediator', () => {
    expect(addGraderBody(q, 'g2')).toEqual({
      mediatorTeacher: 'm1',
      gradingTeachers: ['g1', 'g2'],
    });
    expect(addGraderBody({ mediatorTeacher: '', gradingTeachers: [] }, 'g1')).toEqual({
      mediatorTeacher: '',
      gradingTeachers: ['g1'],
    });
  });

  it('set a mediator and keep the graders', () => {
    expect(setMediatorBody(q, 'm2')).toEqual({ mediatorTeacher: 'm2', gradingTeachers: ['g1'] });
  });

  it('remove the mediator with an empty grading list', () => {
    expect(removeMediatorBody(q)).toEqual({ mediatorTeacher: 'm1', gradingTeachers: [] });
  });

  it('remove a grader with an empty mediator and only that teacher', () => {
    expect(removeGraderBody('g1')).toEqual({ mediatorTeacher: '', gradingTeachers: ['g1'] });
  });

  it('keep one teacher out of both roles, and new markers active', () => {
    expect(whyNotMarker(q, 'mediator', { _id: 'm1', state: 'active' })).toBe('current');
    expect(whyNotMarker(q, 'mediator', { _id: 'g1', state: 'active' })).toBe('otherRole');
    expect(whyNotMarker(q, 'reviewers', { _id: 'm1', state: 'active' })).toBe('otherRole');
    expect(whyNotMarker(q, 'reviewers', { _id: 'x', state: 'inactive' })).toBe('inactive');
    expect(whyNotMarker(q, 'reviewers', { _id: 'x', state: 'active' })).toBeNull();
  });

  it('name the message keys of SPEC.md §8', () => {
    expect(markerMessages('mediator', 'add')).toEqual({
      success: 'msg_update_question_mediator_success',
      error: 'msg_update_question_mediator_error',
    });
    expect(markerMessages('reviewers', 'remove').error).toBe('msg_delete_question_reviewer_error');
  });
});
