import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PhaseClosed } from '../../../../../shared/schemas/phase-reopen.js';
import type {
  PhaseRules,
  RulePreset,
  RulesApplyResult,
  RulesDryRun,
  RulesStatus,
} from '../../../../../shared/schemas/rankings.js';
import { api } from '../../../api/client.js';
import { type PhaseIds, phasePath } from '../../../components/phase/get-phase-context.js';
import {
  RANKINGS_PATH,
  RULE_PRESETS_KEY,
  rankingPhaseKey,
  rankingPhasePath,
  rulesKey,
} from './keys.js';

/** GET …/rules: the phase's ranking and rule settings (the defaults until someone sets them). */
export const useRules = (ids: PhaseIds) =>
  useQuery({
    queryKey: rulesKey(ids),
    queryFn: () => api<PhaseRules>(`${rankingPhasePath(ids)}/rules`),
  });

/**
 * GET …/rules/status: whether the decisions the rules wrote are out of date (scores moved after
 * they were applied), so the page says so without waiting for a dry run.
 */
export const useRulesStatus = (ids: PhaseIds) =>
  useQuery({
    queryKey: [...rulesKey(ids), 'status'],
    queryFn: () => api<RulesStatus>(`${rankingPhasePath(ids)}/rules/status`),
  });

/** GET /ranking-service/rules/presets: the olympiad rule sets to start from (they never change). */
export const useRulePresets = () =>
  useQuery({
    queryKey: RULE_PRESETS_KEY,
    queryFn: () => api<RulePreset[]>(`${RANKINGS_PATH}/rules/presets`),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** PUT …/rules: stores them (a closed phase changes only `publication`). */
export function useSaveRules(ids: PhaseIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rules: PhaseRules) =>
      api<PhaseRules>(`${rankingPhasePath(ids)}/rules`, { method: 'PUT', body: rules }),
    onSuccess: (saved) => {
      queryClient.setQueryData(rulesKey(ids), saved);
      // A new tie-break moves ranks; a new publication changes what students see.
      void queryClient.invalidateQueries({ queryKey: [...rankingPhaseKey(ids), 'ranking'] });
    },
  });
}

/** POST …/rules/dry-run: what the given (or stored) rules would do; changes nothing. */
export const useDryRun = (ids: PhaseIds) =>
  useMutation({
    mutationFn: (rules: PhaseRules | undefined) =>
      api<RulesDryRun>(`${rankingPhasePath(ids)}/rules/dry-run`, {
        method: 'POST',
        body: rules ? { rules } : {},
      }),
  });

/** POST …/rules/apply with the dry run's fingerprint: writes the decisions and prizes. */
export function useApplyRules(ids: PhaseIds) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      fingerprint,
      acceptMissingSectors,
    }: {
      fingerprint: string;
      acceptMissingSectors: boolean;
    }) =>
      api<RulesApplyResult>(`${rankingPhasePath(ids)}/rules/apply`, {
        method: 'POST',
        body: acceptMissingSectors ? { fingerprint, acceptMissingSectors } : { fingerprint },
      }),
    // The phase's student list and ranking now show other decisions and prizes.
    onSettled: () => queryClient.invalidateQueries({ queryKey: rankingPhaseKey(ids) }),
  });
}

/**
 * PUT /exam-mgmt/…/phases/{phaseId}/finish: closes the phase. With `{lastPhase: true}` (the
 * edition's last phase) its results and prizes become final; refused while anyone is admitted.
 */
export function useCloseLastPhase(ids: PhaseIds, lastPhase: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api<PhaseClosed>(`${phasePath(ids)}/finish`, {
        method: 'PUT',
        body: lastPhase ? { lastPhase: true } : {},
      }),
    onSettled: () =>
      queryClient.invalidateQueries({
        queryKey: ['exams', 'exam', ids.examId, 'edition', ids.editionId],
      }),
  });
}
