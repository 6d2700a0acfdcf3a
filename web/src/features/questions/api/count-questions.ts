import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Count } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import type { Where } from '../../../components/list/where.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { bankKey, itemsPath } from './keys.js';

export const questionsCountKey = (ids: PhaseIds, where: Where | undefined) =>
  [...bankKey(ids), 'count', where ?? null] as const;

/** GET …/items/count?where=…: how many questions match (for the pager). */
export const countQuestions = (ids: PhaseIds, where: Where | undefined) =>
  api<Count>(`${itemsPath(ids)}/count`, { query: { where } });

export const useQuestionsCount = (ids: PhaseIds, where: Where | undefined) =>
  useQuery({
    queryKey: questionsCountKey(ids, where),
    queryFn: () => countQuestions(ids, where),
    select: (answer) => answer.count,
    placeholderData: keepPreviousData,
  });
