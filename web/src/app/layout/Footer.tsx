import { Box, Link, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { PRIVACY_URL, TERMS_URL } from '../links.js';

export function Footer() {
  const { t } = useTranslation();
  return (
    <Box
      component="footer"
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        gap: 2,
        px: 3,
        py: 1.5,
        borderTop: 1,
        borderColor: 'divider',
        alignItems: 'center',
      }}
    >
      <Typography variant="body2" color="text.secondary" sx={{ flex: 1, whiteSpace: 'nowrap' }}>
        {t('layout.rights', { year: new Date().getFullYear() })}
      </Typography>
      <Link href={TERMS_URL} variant="body2" underline="hover">
        {t('layout.terms')}
      </Link>
      <Link href={PRIVACY_URL} variant="body2" underline="hover">
        {t('layout.privacy')}
      </Link>
    </Box>
  );
}
