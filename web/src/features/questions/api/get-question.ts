import { useQuery } from '@tanstack/react-query';
import type { Question } from '../../../../../shared/schemas/questions.js';
import { api } from '../../../api/client.js';
import { bankKey, type QuestionIds, questionPath } from './keys.js';

export const questionKey = ({ questionId, ...ids }: QuestionIds) =>
  [...bankKey(ids), 'question', questionId] as const;

/** GET …/items/{questionId}: one question, with its answers and the question's teachers. */
export const getQuestion = ({ questionId, ...ids }: QuestionIds) =>
  api<Question>(questionPath(ids, questionId));

export const useQuestion = (ids: QuestionIds, enabled = true) =>
  useQuery({ queryKey: questionKey(ids), queryFn: () => getQuestion(ids), enabled });
