import CheckCircle from '@mui/icons-material/CheckCircle';
import CloudOff from '@mui/icons-material/CloudOff';
import ErrorOutline from '@mui/icons-material/ErrorOutline';
import RadioButtonUnchecked from '@mui/icons-material/RadioButtonUnchecked';
import Sync from '@mui/icons-material/Sync';
import { Box, Typography } from '@mui/material';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { SaveStatus } from '../lib/answer-queue.js';

const LOOK: Record<SaveStatus, { icon: ReactElement; color: string }> = {
  none: { icon: <RadioButtonUnchecked fontSize="inherit" />, color: 'text.secondary' },
  saved: { icon: <CheckCircle fontSize="inherit" />, color: 'success.main' },
  saving: { icon: <Sync fontSize="inherit" />, color: 'text.secondary' },
  local: { icon: <CloudOff fontSize="inherit" />, color: 'warning.dark' },
  unsaved: { icon: <ErrorOutline fontSize="inherit" />, color: 'error.main' },
  rejected: { icon: <ErrorOutline fontSize="inherit" />, color: 'error.main' },
};

/** Where an answer is: saved on the server, on its way, only on this device, or not saved. */
export function SaveStatusLabel({ status }: { status: SaveStatus }) {
  const { t } = useTranslation();
  const look = LOOK[status];
  return (
    <Box
      role="status"
      aria-live="polite"
      data-testid="save-status"
      data-status={status}
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.5,
        color: look.color,
        fontSize: '1.1rem',
      }}
    >
      {look.icon}
      <Typography component="span" variant="body2" sx={{ color: 'inherit', fontWeight: 500 }}>
        {t(`player.save.${status}`)}
      </Typography>
    </Box>
  );
}
