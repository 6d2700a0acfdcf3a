import { Chip, type ChipProps } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { TestStudentStatus } from '../../../../../shared/schemas/uploads.js';

const COLOR: Record<TestStudentStatus, ChipProps['color']> = {
  not_started: 'default',
  in_progress: 'warning',
  finished: 'success',
  uploaded: 'info',
};

/** Where a student stands on the test: not started, in progress, finished, uploaded. */
export function StatusChip({ status }: { status: TestStudentStatus }) {
  const { t } = useTranslation();
  return <Chip size="small" color={COLOR[status]} label={t(`uploads.status.${status}`)} />;
}
