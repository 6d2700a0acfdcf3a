import HelpOutline from '@mui/icons-material/HelpOutline';
import { Box, Button, Link, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { PRIVACY_URL, TERMS_URL } from '../links.js';
import { LanguageSwitch } from './LanguageSwitch.js';

/** The guest's welcome screen: the brand on one side, the sign-in card on the other. */
export function AuthLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', md: '5fr 6fr' },
      }}
    >
      <Box
        sx={{
          bgcolor: 'primary.main',
          color: 'primary.contrastText',
          p: { xs: 3, md: 6 },
          display: 'flex',
          flexDirection: 'column',
          justifyContent: { md: 'center' },
          gap: 2,
        }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          <img src="/logo.svg" alt="" width={56} height={56} />
          <Typography variant="h3" component="p" sx={{ fontWeight: 700 }}>
            {t('app.name')}
          </Typography>
        </Box>
        <Typography variant="h5" component="p">
          {t('auth.welcomeTitle')}
        </Typography>
        <Typography sx={{ opacity: 0.9, maxWidth: 440 }}>{t('auth.welcomeText')}</Typography>
      </Box>
      <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: { md: '100vh' } }}>
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 1, p: 2 }}>
          <Button component={RouterLink} to="/ajutor" startIcon={<HelpOutline />} color="inherit">
            {t('nav.help')}
          </Button>
          <LanguageSwitch />
        </Box>
        <Box
          component="main"
          id="main"
          sx={{ flex: 1, display: 'grid', placeItems: 'center', p: 2 }}
        >
          {children}
        </Box>
        <Box component="footer" sx={{ display: 'flex', gap: 2, justifyContent: 'center', p: 2 }}>
          <Link href={TERMS_URL} variant="body2" underline="hover">
            {t('layout.terms')}
          </Link>
          <Link href={PRIVACY_URL} variant="body2" underline="hover">
            {t('layout.privacy')}
          </Link>
        </Box>
      </Box>
    </Box>
  );
}
