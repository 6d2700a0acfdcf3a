import { Chip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PhaseState } from '../../../../../shared/schemas/exams.js';

/** Open (green) or closed (grey). */
export function PhaseStateChip({ state }: { state: PhaseState | undefined }) {
  const { t } = useTranslation();
  if (!state) return null;
  return (
    <Chip
      size="small"
      variant="outlined"
      color={state === 'open' ? 'success' : 'default'}
      label={t(`exams.phases.states.${state}`)}
    />
  );
}
