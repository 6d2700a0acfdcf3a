import { Chip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PhaseResult } from '../../../../../shared/schemas/exams.js';
import type { Prize } from '../../../../../shared/schemas/rankings.js';

const PRIZE_COLOR = { first: 'warning', second: 'info', third: 'secondary', mention: 'default' };

/** Premiul I, II, III or Mențiune (`short`: P. I … for narrow screens); nothing without one. */
export function PrizeChip({ prize, short }: { prize: Prize | null | undefined; short?: boolean }) {
  const { t } = useTranslation();
  if (!prize) return null;
  return (
    <Chip
      size="small"
      variant={prize === 'mention' ? 'outlined' : 'filled'}
      color={PRIZE_COLOR[prize] as 'warning' | 'info' | 'secondary' | 'default'}
      label={t(`rankings.${short ? 'prizesShort' : 'prizes'}.${prize}`)}
      aria-label={t(`rankings.prizes.${prize}`)}
    />
  );
}

/** Admitted or rejected (going on to the next phase); a dash before any decision. */
export function DecisionChip({ status }: { status: PhaseResult | null | undefined }) {
  const { t } = useTranslation();
  if (!status) return '—';
  return (
    <Chip
      size="small"
      variant="outlined"
      color={status === 'admitted' ? 'success' : 'default'}
      label={t(`rankings.status.${status}`)}
    />
  );
}
