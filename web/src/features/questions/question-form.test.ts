import { describe, expect, it } from 'vitest';
import type { Question } from '../../../../shared/schemas/questions.js';
import {
  checkQuestionForm,
  emptyQuestion,
  formFieldOf,
  formToBody,
  optionLetter,
  questionToForm,
  shiftCorrect,
  toggleCorrect,
} from './question-form.js';

const stored: Question = {
  _id: 'q1',
  examId: 'e',
  editionId: 'd',
  phaseId: 'p',
  itemQ: 'Cât face $2+2$?',
  itemCategory: null,
  itemDiscipline: 'Matematică',
  itemGrade: 5,
  difficulty: 'low',
  itemType: 'numeric',
  itemAnswers: [],
  itemCorrectAnswers: '4',
  imageFileId: null,
  mediatorTeacher: '',
  gradingTeachers: [],
  inTest: false,
  createdAt: '',
  updatedAt: '',
};

describe('question form', () => {
  it('round-trips a stored question into the body the route takes', () => {
    expect(formToBody(questionToForm(stored))).toEqual({
      itemQ: 'Cât face $2+2$?',
      itemType: 'numeric',
      itemAnswers: [],
      itemCorrectAnswers: '4',
      difficulty: 'low',
      itemGrade: 5,
      itemCategory: '',
      itemDiscipline: 'Matematică',
    });
    expect(checkQuestionForm(questionToForm(stored))).toEqual([]);
  });

  it('drops options and correct indices from types without them', () => {
    const v = {
      ...emptyQuestion('Matematică', 6),
      itemQ: 'Demonstrați.',
      itemType: 'open' as const,
    };
    v.itemCorrectAnswers = [1];
    expect(formToBody(v)).toMatchObject({ itemAnswers: [], itemCorrectAnswers: null });
    expect(checkQuestionForm(v)).toEqual([]);
  });

  it('puts each problem on the field that shows it', () => {
    const v = emptyQuestion('Matematică', '');
    v.itemAnswers = [{ text: 'da' }, { text: '' }];
    const fields = checkQuestionForm(v).map((i) => `${i.field}:${i.code}`);
    expect(fields).toContain('itemQ:required');
    expect(fields).toContain('itemGrade:required');
    expect(fields).toContain('itemAnswers.1.text:required');
    expect(fields).toContain('itemCorrectAnswers:required');
  });

  it('shows a numeric answer problem on the numeric box; a decimal comma is a number', () => {
    const v = {
      ...emptyQuestion('Matematică', 7),
      itemQ: 'Cât face $1/2$?',
      itemType: 'numeric' as const,
    };
    expect(checkQuestionForm(v)).toEqual([{ field: 'numericAnswer', code: 'required' }]);
    v.numericAnswer = 'jumătate';
    expect(checkQuestionForm(v)).toEqual([{ field: 'numericAnswer', code: 'not_number' }]);
    v.numericAnswer = '0,5';
    expect(checkQuestionForm(v)).toEqual([]);
    expect(formFieldOf(v, 'itemCorrectAnswers')).toBe('numericAnswer');
    expect(formFieldOf({ itemType: 'single' }, 'itemCorrectAnswers')).toBe('itemCorrectAnswers');
    expect(formFieldOf({ itemType: 'single' }, 'imageFileId')).toBeUndefined();
  });

  it('refuses a single choice question with two correct options', () => {
    const v = { ...emptyQuestion('Matematică', 5), itemQ: 'Alegeți.' };
    v.itemAnswers = [{ text: 'a' }, { text: 'b' }];
    v.itemCorrectAnswers = [0, 1];
    expect(checkQuestionForm(v)).toEqual([{ field: 'itemCorrectAnswers', code: 'invalid' }]);
  });

  it('keeps one correct option for single choice, any number for multiple', () => {
    expect(toggleCorrect('single', [0], 2)).toEqual([2]);
    expect(toggleCorrect('multiple', [0], 2)).toEqual([0, 2]);
    expect(toggleCorrect('multiple', [0, 2], 0)).toEqual([2]);
    expect(shiftCorrect([0, 2, 3], 2)).toEqual([0, 2]);
    expect(optionLetter(2)).toBe('C');
  });
});
