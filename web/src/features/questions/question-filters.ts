import type { Difficulty } from '../../../../shared/schemas/questions.js';
import {
  andWhere,
  containsWhere,
  equalsWhere,
  escapeLike,
  type Where,
} from '../../components/list/where.js';

/** The question list's filters; '' means "all". */
export type QuestionFilters = {
  /** The subject (`itemDiscipline`). */
  discipline: string;
  category: string;
  grade: number | '';
  difficulty: Difficulty | '';
  /** Words of the statement. */
  search: string;
};

export const INITIAL_QUESTION_FILTERS: QuestionFilters = {
  discipline: '',
  category: '',
  grade: '',
  difficulty: '',
  search: '',
};

/**
 * The `where` of the list and of its count (SPEC.md §7): subject and category matched
 * case-insensitively (the subject whole, the category in part), the grade only when chosen.
 */
export function questionsWhere(f: QuestionFilters): Where | undefined {
  const discipline = f.discipline.trim();
  return andWhere(
    discipline ? { itemDiscipline: { ilike: escapeLike(discipline) } } : undefined,
    containsWhere('itemCategory', f.category),
    equalsWhere('itemGrade', f.grade),
    equalsWhere('difficulty', f.difficulty),
    containsWhere('itemQ', f.search),
  );
}

/** SPEC.md §4: changing the subject clears the category (categories belong to a subject). */
export const disciplineChange = (discipline: string): Partial<QuestionFilters> => ({
  discipline,
  category: '',
});
