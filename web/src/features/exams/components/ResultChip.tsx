import { Chip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PhaseResult } from '../../../../../shared/schemas/exams.js';

/** Admis (green), respins (red), or no decision yet. */
export function ResultChip({ status }: { status: PhaseResult | null | undefined }) {
  const { t } = useTranslation();
  if (!status) return <>{t('exams.results.none')}</>;
  return (
    <Chip
      size="small"
      color={status === 'admitted' ? 'success' : 'error'}
      variant="outlined"
      label={t(`exams.results.${status}`)}
    />
  );
}
