import { Box, Button, Typography } from '@mui/material';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Translation } from 'react-i18next';
import { reportError } from '../lib/tracing/index.js';

type State = { failed: boolean };

/** The top-level fallback of SPEC.md §8: 'An error has occurred' instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
    reportError(error);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Translation>
        {(t) => (
          <Box
            role="alert"
            sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 3 }}
          >
            <Box sx={{ textAlign: 'center', maxWidth: 480 }}>
              <Typography variant="h5" component="h1" gutterBottom>
                {t('app.errorBoundary')}
              </Typography>
              <Typography color="text.secondary" sx={{ mb: 3 }}>
                {t('app.errorBoundaryHint')}
              </Typography>
              <Button variant="contained" onClick={() => window.location.assign('/')}>
                {t('app.reload')}
              </Button>
            </Box>
          </Box>
        )}
      </Translation>
    );
  }
}
