import { useQuery } from '@tanstack/react-query';
import type { Edition } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import { type EditionIds, editionKey, editionPath } from './keys.js';

export const editionDetailKey = ({ examId, editionId }: EditionIds) =>
  [...editionKey(examId, editionId), 'detail'] as const;

/** GET /exam-mgmt/exams/{examId}/editions/{editionId}. */
export const getEdition = ({ examId, editionId }: EditionIds) =>
  api<Edition>(editionPath(examId, editionId));

export const useEdition = (ids: EditionIds) =>
  useQuery({ queryKey: editionDetailKey(ids), queryFn: () => getEdition(ids) });
