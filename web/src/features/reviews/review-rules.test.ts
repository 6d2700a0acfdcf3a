import { describe, expect, it } from 'vitest';
import type { StudentReviewItem } from '../../../../shared/schemas/reviews.js';
import { submittedText } from './components/format.js';
import { appealLabel, listTypeOf, missingByQuestion } from './review-rules.js';

describe('the refused start of marking', () => {
  it('groups the missing fields by question, once each, and ignores what is not a detail', () => {
    const details = [
      { itemId: 'q1', field: 'mediatorTeacher' },
      { itemId: 'q2', field: 'gradingTeachers' },
      { itemId: 'q1', field: 'gradingTeachers' },
      { itemId: 'q1', field: 'mediatorTeacher' },
      { itemId: 'q3', field: 'somethingElse' },
      null,
    ];
    expect([...missingByQuestion(details).entries()]).toEqual([
      ['q1', ['mediatorTeacher', 'gradingTeachers']],
      ['q2', ['gradingTeachers']],
    ]);
    expect(missingByQuestion({ itemId: 'q1' }).size).toBe(0);
  });
});

describe('the list a paper was opened from', () => {
  it('is one of the kind’s types, else the marking work', () => {
    expect(listTypeOf('reviews', 'NEEDS_MEDIATION_ITEMS')).toBe('NEEDS_MEDIATION_ITEMS');
    expect(listTypeOf('reviews', 'COMMITTEE_ITEMS')).toBe('REVIEW_ITEMS');
    expect(listTypeOf('appeals', 'COMMITTEE_ITEMS')).toBe('COMMITTEE_ITEMS');
    expect(listTypeOf('appeals', null)).toBe('REVIEW_ITEMS');
  });
});

describe("a student's item", () => {
  const item = (patch: Partial<StudentReviewItem>): StudentReviewItem => ({
    itemId: 'q1',
    itemIndexInTest: 0,
    statement: 'Cât face 1 + 1?',
    itemType: 'single',
    itemAnswers: ['1', '2'],
    ownAnswer: [1],
    maxScore: 10,
    finalScore: 6,
    scoreState: 'provisional',
    appealStatus: 'none',
    appealOutcome: null,
    canChallenge: true,
    decidedBy: 'marking',
    changes: [],
    ...patch,
  });
  it('reads as SPEC.md §4 says: none without a score, pending, then decided', () => {
    expect(appealLabel(item({ finalScore: null }))?.key).toBe('status_appeal_none');
    expect(appealLabel(item({}))).toBeNull();
    expect(appealLabel(item({ appealStatus: 'pending' }))?.key).toBe('status_appeal_pending');
    expect(appealLabel(item({ appealStatus: 'resolved', appealOutcome: 'kept' }))?.key).toBe(
      'result.appealKept',
    );
    expect(appealLabel(item({ appealStatus: 'resolved', appealOutcome: 'changed' }))?.key).toBe(
      'result.appealChanged',
    );
  });
  it('shows an online answer as option letters or the typed value', () => {
    expect(submittedText([0, 2])).toBe('A, C');
    expect(submittedText('5/6')).toBe('5/6');
    expect(submittedText(null)).toBeNull();
  });
});
