import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.js';
import { type PhaseIds, phaseKey } from '../../../components/phase/get-phase-context.js';
import { phaseTestsKey, testsPath } from './keys.js';

/** PUT …/tests/publish (empty body): publishes every test of the phase. */
export const publishTests = (ids: PhaseIds) =>
  api<unknown>(`${testsPath(ids)}/publish`, { method: 'PUT' });

export function usePublishTests(ids: PhaseIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => publishTests(ids),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: phaseTestsKey(ids) }),
        queryClient.invalidateQueries({ queryKey: phaseKey(ids) }),
      ]),
  });
}
