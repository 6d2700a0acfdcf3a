import { describe, expect, it } from 'vitest';
import { disciplineChange, INITIAL_QUESTION_FILTERS, questionsWhere } from './question-filters.js';

describe('question list filters', () => {
  it('send no condition when nothing is chosen (the grade only when not empty)', () => {
    expect(questionsWhere(INITIAL_QUESTION_FILTERS)).toBeUndefined();
    expect(questionsWhere({ ...INITIAL_QUESTION_FILTERS, grade: 0 })).toEqual({ itemGrade: 0 });
  });

  it('match subject and category case-insensitively, wildcards typed by the user literal', () => {
    expect(
      questionsWhere({
        discipline: 'Matematică',
        category: 'alg_',
        grade: 7,
        difficulty: 'hard',
        search: ' 50% ',
      }),
    ).toEqual({
      and: [
        { itemDiscipline: { ilike: 'Matematică' } },
        { itemCategory: { ilike: '%alg\\_%' } },
        { itemGrade: 7 },
        { difficulty: 'hard' },
        { itemQ: { ilike: '%50\\%%' } },
      ],
    });
  });

  it('clear the category when the subject changes', () => {
    expect(disciplineChange('Informatică')).toEqual({ discipline: 'Informatică', category: '' });
  });
});
