import { Chip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PhaseResult } from '../../../../../shared/schemas/exams.js';
import type { Prize } from '../../../../../shared/schemas/rankings.js';

const PRIZE_COLOR = { first: 'warning', second: 'info', third: 'secondary', mention: 'default' };

/**
 * Premiul I, II, III or Mențiune (`short`: P. I … for narrow screens); nothing without one.
 * `provisional` (the phase is not closed yet): the chip says so, since only closing makes it
 * final.
 */
export function PrizeChip({
  prize,
  short,
  provisional,
}: {
  prize: Prize | null | undefined;
  short?: boolean;
  provisional?: boolean;
}) {
  const { t } = useTranslation();
  if (!prize) return null;
  const name = t(`rankings.${short ? 'prizesShort' : 'prizes'}.${prize}`);
  const full = t(`rankings.prizes.${prize}`);
  return (
    <Chip
      size="small"
      variant={prize === 'mention' ? 'outlined' : 'filled'}
      color={PRIZE_COLOR[prize] as 'warning' | 'info' | 'secondary' | 'default'}
      label={provisional ? t('rankings.provisionalAward', { name }) : name}
      aria-label={provisional ? t('rankings.provisionalAward', { name: full }) : full}
    />
  );
}

/**
 * Admitted or rejected (going on to the next phase); a dash before any decision.
 * `provisional`: the phase is not closed, so the decision may still change.
 */
export function DecisionChip({
  status,
  provisional,
}: {
  status: PhaseResult | null | undefined;
  provisional?: boolean;
}) {
  const { t } = useTranslation();
  if (!status) return '—';
  const name = t(`rankings.status.${status}`);
  return (
    <Chip
      size="small"
      variant="outlined"
      color={status === 'admitted' ? 'success' : 'default'}
      label={provisional ? t('rankings.provisionalAward', { name }) : name}
    />
  );
}
