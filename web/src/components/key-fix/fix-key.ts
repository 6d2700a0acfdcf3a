import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  KeyFixInput,
  KeyFixPreview,
  KeyFixResult,
} from '../../../../shared/schemas/reviews.js';
import { api } from '../../api/client.js';
import type { PhaseIds } from '../phase/get-phase-context.js';

const enc = encodeURIComponent;
const keyPath = (ids: PhaseIds, itemId: string) =>
  `/test-review/exams/${enc(ids.examId)}/editions/${enc(ids.editionId)}/phases/${enc(ids.phaseId)}/items/${enc(itemId)}/key`;
/** The marking screens' queries of the phase (features/reviews/api/paths.ts reviewPhaseKey). */
const reviewPhaseKey = (phaseId: string) => ['reviews', 'phase', phaseId] as const;

/** POST P/items/{itemId}/key/preview: whose scores the corrected key would change. */
export const previewKeyFix = (ids: PhaseIds, itemId: string, body: KeyFixInput) =>
  api<KeyFixPreview>(`${keyPath(ids, itemId)}/preview`, { method: 'POST', body });

/** PUT P/items/{itemId}/key: the key corrected, every attempt rescored in one transaction. */
export const applyKeyFix = (ids: PhaseIds, itemId: string, body: KeyFixInput) =>
  api<KeyFixResult>(keyPath(ids, itemId), { method: 'PUT', body });

export const usePreviewKeyFix = (ids: PhaseIds, itemId: string) =>
  useMutation({ mutationFn: (body: KeyFixInput) => previewKeyFix(ids, itemId, body) });

export function useApplyKeyFix(ids: PhaseIds, itemId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: KeyFixInput) => applyKeyFix(ids, itemId, body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: reviewPhaseKey(ids.phaseId) }),
  });
}
