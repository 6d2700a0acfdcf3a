import { useQuery } from '@tanstack/react-query';
import { MAX_PAGE_SIZE } from '../../../../../shared/constants.js';
import type { ExamListItem } from '../../../../../shared/schemas/exams.js';
import { api } from '../../../api/client.js';

/** Roles that may list a competition's students (`?examAdmin=`, people.policy.ts). */
const SCOPING_ROLES = new Set(['admin', 'examAdmin', 'staff']);

/**
 * GET /exam-mgmt/exams (names only): the competitions whose students the caller may list,
 * for the students list's competition filter (SPEC.md §7 `examAdmin`).
 */
export const getExamOptions = () =>
  api<ExamListItem[]>('/exam-mgmt/exams', {
    query: {
      filter: {
        limit: MAX_PAGE_SIZE,
        skip: 0,
        order: 'name ASC',
        fields: ['_id', 'name', 'myRole'],
      },
    },
  });

export const useExamOptions = () =>
  useQuery({
    queryKey: ['people', 'exam-options'],
    queryFn: getExamOptions,
    select: (exams) =>
      exams
        .filter((e) => e.myRole && SCOPING_ROLES.has(e.myRole))
        .map((e) => ({ value: e._id, label: e.name ?? e._id })),
  });
