import type { TFunction } from 'i18next';
import { GRADE_ABSOLVENT } from '../../../shared/constants.js';

/** Grades ascending, without repeats, as numbers ('5, 6'); 99 is named ('Absolvent'). */
export function gradesList(grades: readonly number[], absolvent: string): string {
  return [...new Set(grades)]
    .sort((a, b) => a - b)
    .map((g) => (g === GRADE_ABSOLVENT ? absolvent : String(g)))
    .join(', ');
}

/**
 * The title of a test by its grades (SPEC.md §3): 'Clasa 5, 6' in Romanian, 'Grade 5, 6' in
 * English. The test player and the printed paper use the same words.
 */
export const gradesTitle = (grades: readonly number[], t: TFunction) =>
  t('tests.gradesTitle', { grades: gradesList(grades, t(`grades.${GRADE_ABSOLVENT}`)) });
