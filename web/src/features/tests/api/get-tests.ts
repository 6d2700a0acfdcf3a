import { useQuery } from '@tanstack/react-query';
import type { Test } from '../../../../../shared/schemas/tests.js';
import { api } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { phaseTestsKey, testsPath } from './keys.js';

export const testsListKey = (ids: PhaseIds) => [...phaseTestsKey(ids), 'list'] as const;

/** GET …/tests: every test of the phase (a handful: one per grade at most). */
export const getTests = (ids: PhaseIds) => api<Test[]>(testsPath(ids));

export const useTests = (ids: PhaseIds) =>
  useQuery({ queryKey: testsListKey(ids), queryFn: () => getTests(ids) });
