import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { CssBaseline, GlobalStyles, ThemeProvider } from '@mui/material';
import { enUS, roRO } from '@mui/material/locale';
import { createTheme } from '@mui/material/styles';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { prefixer } from 'stylis';
import rtlPlugin from 'stylis-plugin-rtl';
import type { Settings } from '../../../../shared/schemas/users.js';
import { useSettings } from './settings.js';

const SCHEMES: Record<Settings['colorScheme'], { main: string; secondary: string }> = {
  blue: { main: '#1e40af', secondary: '#d97706' },
  teal: { main: '#0f766e', secondary: '#be185d' },
  indigo: { main: '#4338ca', secondary: '#0e7490' },
  amber: { main: '#b45309', secondary: '#1d4ed8' },
};

const ltrCache = createCache({ key: 'mui' });
const rtlCache = createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] });

export function AppThemeProvider({ children }: { children: ReactNode }) {
  const { settings } = useSettings();
  const { i18n } = useTranslation();

  const theme = useMemo(
    () =>
      createTheme(
        {
          direction: settings.direction,
          palette: {
            mode: settings.theme,
            primary: { main: SCHEMES[settings.colorScheme].main },
            secondary: { main: SCHEMES[settings.colorScheme].secondary },
            ...(settings.theme === 'light' ? { background: { default: '#f4f6fb' } } : {}),
          },
          shape: { borderRadius: 8 },
          typography: { fontFamily: 'Roboto, system-ui, -apple-system, "Segoe UI", sans-serif' },
          transitions: settings.animations ? {} : { create: () => 'none' },
          components: {
            MuiButtonBase: { defaultProps: { disableRipple: !settings.animations } },
          },
        },
        i18n.language === 'en' ? enUS : roRO,
      ),
    [settings, i18n.language],
  );

  return (
    <CacheProvider value={settings.direction === 'rtl' ? rtlCache : ltrCache}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {settings.customScrollbars && (
          <GlobalStyles
            styles={(t) => ({
              '*': {
                scrollbarWidth: 'thin',
                scrollbarColor: `${t.palette.action.disabled} transparent`,
              },
              '*::-webkit-scrollbar': { width: 8, height: 8 },
              '*::-webkit-scrollbar-thumb': {
                backgroundColor: t.palette.action.disabled,
                borderRadius: 4,
              },
            })}
          />
        )}
        {!settings.animations && (
          <GlobalStyles
            styles={{
              '*, *::before, *::after': {
                animation: 'none !important',
                transition: 'none !important',
              },
            }}
          />
        )}
        {children}
      </ThemeProvider>
    </CacheProvider>
  );
}
