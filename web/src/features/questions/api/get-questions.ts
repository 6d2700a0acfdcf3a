import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { QuestionListItem } from '../../../../../shared/schemas/questions.js';
import { api } from '../../../api/client.js';
import type { ListFilter } from '../../../components/list/use-paged-list.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { bankKey, itemsPath } from './keys.js';

/** A page's filter, projected (`fields`) to what the list shows. */
export type QuestionsFilter = ListFilter & { fields?: string[] };

export const questionsListKey = (ids: PhaseIds, filter: QuestionsFilter) =>
  [...bankKey(ids), 'list', filter] as const;

/** GET …/items?filter=…: a page of the phase's question bank. */
export const getQuestions = (ids: PhaseIds, filter: QuestionsFilter) =>
  api<QuestionListItem[]>(itemsPath(ids), { query: { filter } });

/** One page of questions; the previous page stays shown while the next one loads. */
export const useQuestions = (ids: PhaseIds, filter: QuestionsFilter) =>
  useQuery({
    queryKey: questionsListKey(ids, filter),
    queryFn: () => getQuestions(ids, filter),
    placeholderData: keepPreviousData,
  });
