import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Question, QuestionCreateInput } from '../../../../../shared/schemas/questions.js';
import { api } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { bankKey, itemsPath } from './keys.js';

/** POST …/items: adds a question to the phase's bank. */
export const createQuestion = (ids: PhaseIds, body: QuestionCreateInput) =>
  api<Question>(itemsPath(ids), { method: 'POST', body });

export function useCreateQuestion(ids: PhaseIds) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: QuestionCreateInput) => createQuestion(ids, body),
    onSuccess: () => client.invalidateQueries({ queryKey: bankKey(ids) }),
  });
}
