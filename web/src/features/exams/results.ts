import type { TFunction } from 'i18next';
import type { Where } from '../../components/list/where.js';

/**
 * The phase list's results filter: every student, those whose total is complete (nothing
 * waits for marking), or those with questions still waiting. Students without any result yet
 * have no `awaitingItems` and fall in neither of the last two.
 */
export const RESULTS_FILTERS = ['', 'complete', 'awaiting'] as const;
export type ResultsFilter = (typeof RESULTS_FILTERS)[number];

export function resultsWhere(filter: ResultsFilter): Where | undefined {
  if (filter === 'complete') return { awaitingItems: 0 };
  if (filter === 'awaiting') return { awaitingItems: { gt: 0 } };
  return undefined;
}

/** RESULTS_INCOMPLETE details: how far the totals are from complete. */
export type IncompleteResults = {
  awaitingItems: number;
  studentsAwaiting: number;
  runningAttempts: number;
};

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

export const isIncompleteResults = (d: unknown): d is IncompleteResults =>
  !!d &&
  typeof d === 'object' &&
  isCount((d as IncompleteResults).awaitingItems) &&
  isCount((d as IncompleteResults).studentsAwaiting) &&
  isCount((d as IncompleteResults).runningAttempts);

/**
 * Why admission by rule was refused, with the server's numbers: "3 questions of 2 students
 * still wait for marking; 1 student is still writing". Each count takes its own plural form.
 */
export function incompleteResultsText(d: IncompleteResults, t: TFunction): string {
  const reasons: string[] = [];
  if (d.awaitingItems > 0) {
    reasons.push(
      t('exams.results.incomplete.awaiting', {
        count: d.awaitingItems,
        items: t('exams.results.incomplete.items', { count: d.awaitingItems }),
        students: t('exams.results.incomplete.students', { count: d.studentsAwaiting }),
      }),
    );
  }
  if (d.runningAttempts > 0) {
    reasons.push(t('exams.results.incomplete.running', { count: d.runningAttempts }));
  }
  if (reasons.length === 0) return t('errors.RESULTS_INCOMPLETE');
  return t('exams.results.incomplete.message', { reasons: reasons.join('; ') });
}
