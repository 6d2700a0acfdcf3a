import { useQuery } from '@tanstack/react-query';
import type { Question } from '../../../../../shared/schemas/questions.js';
import { api } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';

const enc = encodeURIComponent;

/**
 * GET /resource-mgmt/…/items/{questionId}: a question of the bank, to name the questions that
 * the start of marking says still lack teachers (the same key as the question screens).
 */
export const useBankQuestion = (ids: PhaseIds, questionId: string) =>
  useQuery({
    queryKey: ['questions', ids.examId, ids.editionId, ids.phaseId, 'question', questionId],
    queryFn: () =>
      api<Question>(
        `/resource-mgmt/exams/${enc(ids.examId)}/editions/${enc(ids.editionId)}/phases/${enc(ids.phaseId)}/items/${enc(questionId)}`,
      ),
  });
