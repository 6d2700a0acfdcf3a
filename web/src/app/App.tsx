import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { RouterProvider } from 'react-router';
import { setUnauthorizedHandler } from '../api/client.js';
import { AuthProvider } from '../lib/auth.js';
import { SnackbarProvider } from '../lib/snackbar.js';
import { ErrorBoundary } from './ErrorBoundary.js';
import { queryClient } from './providers/query.js';
import { SettingsProvider } from './providers/settings.js';
import { AppThemeProvider } from './providers/theme.js';
import { router } from './routes.js';

export function App() {
  useEffect(() => {
    // Any 401 ends the session on this device (SPEC.md §7).
    setUnauthorizedHandler(() => void router.navigate('/deconectare'));
  }, []);

  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <SettingsProvider>
          <AppThemeProvider>
            <ErrorBoundary>
              <SnackbarProvider>
                <RouterProvider router={router} />
              </SnackbarProvider>
            </ErrorBoundary>
          </AppThemeProvider>
        </SettingsProvider>
      </AuthProvider>
    </QueryClientProvider>
  );
}
