import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client.js';

const count = (d: unknown, key: string) => {
  const v = d && typeof d === 'object' ? (d as Record<string, unknown>)[key] : undefined;
  return typeof v === 'number' && Number.isInteger(v) ? v : 0;
};

export type Refusal = { key: string; values?: Record<string, unknown> };

/**
 * Why applying the rules or closing the phase was refused, as a message key: the outcome
 * moved since the dry run, results still incomplete (with the server's numbers), the phase
 * closed, Bucharest students without a sector, no rules, someone still admitted in a last phase, or the code's own message.
 */
export function refusal(error: unknown, t: TFunction): Refusal {
  if (!(error instanceof ApiError)) return { key: 'errors.GENERAL_ERROR' };
  switch (error.code) {
    case 'RULES_OUTCOME_CHANGED':
      return { key: 'rankings.refusals.outcomeChanged' };
    case 'RESULTS_INCOMPLETE': {
      const awaiting = count(error.details, 'awaitingItems');
      const running = count(error.details, 'runningAttempts');
      const reasons = [
        awaiting > 0 && t('rankings.state.awaitingItems', { count: awaiting }),
        running > 0 && t('rankings.state.runningAttempts', { count: running }),
      ].filter(Boolean);
      return { key: 'rankings.refusals.incomplete', values: { reasons: reasons.join(' ') } };
    }
    case 'PHASE_CLOSED':
      return { key: 'rankings.refusals.closed' };
    case 'SECTOR_MISSING':
      return { key: 'rankings.refusals.missingSectors' };
    case 'EDITION_PHASE_NOT_CREATED':
      return { key: 'rankings.refusals.stillAdmitted' };
    case 'CLIENT_ERROR':
      return error.fieldErrors.rules
        ? { key: 'rankings.refusals.noRules' }
        : { key: 'errors.CLIENT_ERROR' };
    default:
      return { key: `errors.${error.code}`, values: { defaultValue: t('errors.GENERAL_ERROR') } };
  }
}

export const refusalText = (error: unknown, t: TFunction) => {
  const r = refusal(error, t);
  return t(r.key, r.values);
};
