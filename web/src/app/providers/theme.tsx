import createCache, { type EmotionCache } from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import { CssBaseline, GlobalStyles, ThemeProvider } from '@mui/material';
import { enUS, roRO } from '@mui/material/locale';
import { createTheme } from '@mui/material/styles';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Settings } from '../../../../shared/schemas/users.js';
import { useSettings } from './settings.js';

type Scheme = { main: string; secondary: string };

/**
 * Each colour scheme in both themes. Every colour reads at 4.5:1 or more as text on its
 * theme's background (light: the 700 shades on white; dark: the 300 shades on #121212).
 */
const SCHEMES: Record<Settings['colorScheme'], Record<Settings['theme'], Scheme>> = {
  blue: {
    light: { main: '#1e40af', secondary: '#b45309' },
    dark: { main: '#93c5fd', secondary: '#fcd34d' },
  },
  teal: {
    light: { main: '#0f766e', secondary: '#be185d' },
    dark: { main: '#5eead4', secondary: '#f9a8d4' },
  },
  indigo: {
    light: { main: '#4338ca', secondary: '#0e7490' },
    dark: { main: '#a5b4fc', secondary: '#67e8f9' },
  },
  amber: {
    light: { main: '#b45309', secondary: '#1d4ed8' },
    dark: { main: '#fcd34d', secondary: '#93c5fd' },
  },
};

const ltrCache = createCache({ key: 'mui' });
/** The right-to-left styles (rtl-cache.ts), once fetched: only a right-to-left page needs them. */
let rtlCache: EmotionCache | undefined;

/** The right-to-left cache when `rtl`, fetched on first need (left-to-right styles meanwhile). */
function useRtlCache(rtl: boolean): EmotionCache | undefined {
  const [, arrived] = useState(0);
  useEffect(() => {
    if (!rtl || rtlCache) return;
    let live = true;
    void import('./rtl-cache.js').then((m) => {
      rtlCache = m.rtlCache;
      if (live) arrived((n) => n + 1);
    });
    return () => {
      live = false;
    };
  }, [rtl]);
  return rtl ? rtlCache : undefined;
}

export function AppThemeProvider({ children }: { children: ReactNode }) {
  const { settings } = useSettings();
  const { t, i18n } = useTranslation();
  const rtl = useRtlCache(settings.direction === 'rtl');

  const theme = useMemo(
    () =>
      createTheme(
        {
          direction: settings.direction,
          palette: {
            mode: settings.theme,
            primary: { main: SCHEMES[settings.colorScheme][settings.theme].main },
            secondary: { main: SCHEMES[settings.colorScheme][settings.theme].secondary },
            // WCAG AA for text: a filled chip or button takes white text only where white
            // reads at 4.5:1 on it, else dark text (MUI's default of 3 put white on orange).
            contrastThreshold: 4.5,
            ...(settings.theme === 'light'
              ? {
                  background: { default: '#f4f6fb' },
                  // MUI's orange and light blue read at 3–3.9:1 as text on white (a chip's
                  // outline label, "waiting" notes): one shade darker each, at 4.5:1 or more.
                  warning: { main: '#c2410c' },
                  info: { main: '#0369a1' },
                }
              : {}),
          },
          shape: { borderRadius: 8 },
          typography: { fontFamily: 'Roboto, system-ui, -apple-system, "Segoe UI", sans-serif' },
          transitions: settings.animations ? {} : { create: () => 'none' },
          components: {
            MuiButtonBase: { defaultProps: { disableRipple: !settings.animations } },
            // A progress bar or spinner with no name of its own still says what it is.
            MuiLinearProgress: { defaultProps: { 'aria-label': t('list.loading') } },
            MuiCircularProgress: { defaultProps: { 'aria-label': t('list.loading') } },
            // A disabled field's help says why it cannot change: it must stay readable (MUI
            // greys it to 2.7:1).
            MuiFormHelperText: {
              styleOverrides: {
                root: ({ theme: t }) => ({
                  '&.Mui-disabled': { color: t.palette.text.secondary },
                }),
              },
            },
          },
        },
        i18n.language === 'en' ? enUS : roRO,
      ),
    [settings, i18n.language, t],
  );

  return (
    <CacheProvider value={rtl ?? ltrCache}>
      <ThemeProvider theme={theme}>
        {/* color-scheme on the page: the browser's own controls and scrollbars match the theme. */}
        <CssBaseline enableColorScheme />
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
