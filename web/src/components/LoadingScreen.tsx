import { Box, CircularProgress, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** The 'Loading...' screen shown while the auth check or a page is pending. */
export function LoadingScreen() {
  const { t } = useTranslation();
  return (
    <Box
      role="status"
      aria-live="polite"
      sx={{
        minHeight: '60vh',
        display: 'grid',
        placeItems: 'center',
        gap: 2,
        alignContent: 'center',
      }}
    >
      <img src="/logo.svg" alt="" width={64} height={64} />
      <CircularProgress size={32} />
      <Typography color="text.secondary">{t('app.loading')}</Typography>
    </Box>
  );
}
