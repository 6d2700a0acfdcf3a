import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MarkInput } from '../../../../../shared/schemas/reviews.js';
import { api } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import type { EntryKind } from '../paths.js';
import type { EntryOf } from './get-entries.js';
import { myPhasesKey } from './my-phases.js';
import { entryPath, reviewPhaseKey } from './paths.js';

/** A reviewer's mark, or the mediator's (SPEC.md §7 `…/mediations`). */
export type MarkAs = 'mark' | 'mediation';

/**
 * PUT P/reviews/{reviewId} or …/mediations (and the same under appeals): the mark with the
 * entry's `version` as read, so a second tab gets 409 REVIEW_CHANGED instead of overwriting.
 */
export const saveMark = <K extends EntryKind>(
  ids: PhaseIds,
  kind: K,
  reviewId: string,
  as: MarkAs,
  body: MarkInput,
) =>
  api<EntryOf<K>>(`${entryPath(ids, kind, reviewId)}${as === 'mediation' ? '/mediations' : ''}`, {
    method: 'PUT',
    body,
  });

export function useSaveMark<K extends EntryKind>(ids: PhaseIds, kind: K, reviewId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ as, body }: { as: MarkAs; body: MarkInput }) =>
      saveMark(ids, kind, reviewId, as, body),
    // Lists, counts, progress and the entry all change with a mark (or a conflict to reload),
    // and so does the teacher's open work in the menu's "To mark".
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewPhaseKey(ids.phaseId) }),
        queryClient.invalidateQueries({ queryKey: myPhasesKey }),
      ]);
    },
  });
}
