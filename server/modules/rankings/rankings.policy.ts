import type { RankingPublication } from '../../../shared/schemas/rankings.js';
import { canSetResults, type ExamAccess, seesWholeExam } from '../exams/index.js';

/** Admins, the exam's admins and staff see the whole ranking; a coordinator their students. */
export function seesWholeRanking(access: ExamAccess): boolean {
  return seesWholeExam(access);
}

/** Those who decide who goes on (DESIGN.md: the commission and the exam's admins) set rules. */
export function canSetRules(access: ExamAccess): boolean {
  return canSetResults(access);
}

/** A participant sees the whole ranking only where the phase publishes it. */
export function canStudentSeeRanking(publication: RankingPublication): boolean {
  return publication !== 'none';
}
