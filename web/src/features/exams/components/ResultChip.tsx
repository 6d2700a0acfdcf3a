import { Chip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PhaseResult } from '../../../../../shared/schemas/exams.js';

/**
 * Admis (green), respins (red), or no decision yet; `absent` (no result in the phase): a
 * rejection reads "Absent", since the student was not judged on any paper.
 */
export function ResultChip({
  status,
  absent = false,
}: {
  status: PhaseResult | null | undefined;
  absent?: boolean;
}) {
  const { t } = useTranslation();
  if (!status) return <>{t('exams.results.none')}</>;
  const isAbsent = absent && status === 'rejected';
  return (
    <Chip
      size="small"
      color={status === 'admitted' ? 'success' : isAbsent ? 'default' : 'error'}
      variant="outlined"
      label={t(isAbsent ? 'exams.results.absent' : `exams.results.${status}`)}
    />
  );
}
