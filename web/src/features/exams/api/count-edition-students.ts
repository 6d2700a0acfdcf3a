import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Count } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';
import type { Where } from '../../../components/list/where.js';
import { editionStudentsKey } from './get-edition-students.js';
import { type EditionIds, editionPath } from './keys.js';

/** GET …/editions/{editionId}/students/count?where=…: `{count}` for the pager. */
export const countEditionStudents = ({ examId, editionId }: EditionIds, where: Where | undefined) =>
  api<Count>(`${editionPath(examId, editionId)}/students/count`, { query: { where } });

export const useEditionStudentsCount = (ids: EditionIds, where: Where | undefined) =>
  useQuery({
    queryKey: [...editionStudentsKey(ids), 'count', where ?? null],
    queryFn: () => countEditionStudents(ids, where),
    select: (answer) => answer.count,
    placeholderData: keepPreviousData,
  });
