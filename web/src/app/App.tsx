import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { BrowserRouter, useNavigate } from 'react-router';
import { setUnauthorizedHandler } from '../api/client.js';
import { AuthProvider } from '../lib/auth.js';
import { SnackbarProvider } from '../lib/snackbar.js';
import { ErrorBoundary } from './ErrorBoundary.js';
import { queryClient } from './providers/query.js';
import { SettingsProvider } from './providers/settings.js';
import { AppThemeProvider } from './providers/theme.js';
import { AppRoutes } from './routes.js';

/** Any 401 ends the session on this device (SPEC.md §7). */
function SignOutOnUnauthorized() {
  const navigate = useNavigate();
  useEffect(() => {
    setUnauthorizedHandler(() => void navigate('/deconectare'));
  }, [navigate]);
  return null;
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <SettingsProvider>
          <AppThemeProvider>
            <ErrorBoundary>
              <SnackbarProvider>
                <BrowserRouter>
                  <SignOutOnUnauthorized />
                  <AppRoutes />
                </BrowserRouter>
              </SnackbarProvider>
            </ErrorBoundary>
          </AppThemeProvider>
        </SettingsProvider>
      </AuthProvider>
    </QueryClientProvider>
  );
}
