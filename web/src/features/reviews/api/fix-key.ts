import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  KeyFixInput,
  KeyFixPreview,
  KeyFixResult,
} from '../../../../../shared/schemas/reviews.js';
import { api } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { reviewPhaseKey, reviewPhasePath } from './paths.js';

const keyPath = (ids: PhaseIds, itemId: string) =>
  `${reviewPhasePath(ids)}/items/${encodeURIComponent(itemId)}/key`;

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
