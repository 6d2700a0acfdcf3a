import { AppBar, Box, Toolbar, Typography } from '@mui/material';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { LoadingScreen } from '../../components/LoadingScreen.js';
import { LanguageSwitch } from './LanguageSwitch.js';

/**
 * A toolbar and the page, nothing else: the test-taking screen (no navbar, footer or side
 * panels, SPEC.md §2) and the printable test view.
 */
export function BareLayout() {
  const { t } = useTranslation();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column' }}>
      <AppBar
        position="sticky"
        color="inherit"
        elevation={0}
        sx={{ borderBottom: 1, borderColor: 'divider', displayPrint: 'none' }}
      >
        <Toolbar sx={{ gap: 1.5 }}>
          <img src="/logo.svg" alt="" width={32} height={32} />
          <Typography variant="h6" component="span" sx={{ flex: 1, fontWeight: 700 }}>
            {t('app.name')}
          </Typography>
          <LanguageSwitch />
        </Toolbar>
      </AppBar>
      <Box component="main" id="main" sx={{ flex: 1, p: { xs: 2, md: 3 } }}>
        <Suspense fallback={<LoadingScreen />}>
          <Outlet />
        </Suspense>
      </Box>
    </Box>
  );
}
