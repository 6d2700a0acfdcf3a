import { Box, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client.js';

/**
 * Why a phase could not be closed. SPEC.md §8: the server's message replaces the default; a
 * missing next phase also gets a translated hint saying what to do.
 */
export function CloseError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const code = error instanceof ApiError ? error.code : 'GENERAL_ERROR';
  const serverMessage = error instanceof ApiError ? error.message.trim() : '';
  const hint =
    code === 'EDITION_PHASE_NOT_CREATED' ? t('exams.phases.closeNeedsNext') : t(`errors.${code}`);
  return (
    <Box>
      <Typography variant="body2">{hint}</Typography>
      {serverMessage && code !== 'GENERAL_ERROR' && (
        <Typography variant="caption" component="p" sx={{ mt: 0.5 }}>
          {serverMessage}
        </Typography>
      )}
    </Box>
  );
}
