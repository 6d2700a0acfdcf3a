import { Alert, Snackbar } from '@mui/material';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SNACKBAR_HIDE_MS } from '../../../shared/constants.js';
import { ApiError } from '../api/client.js';

export type Variant = 'success' | 'warning' | 'error' | 'info';
type Message = { id: number; key: string; values?: Record<string, unknown>; variant: Variant };

type Notify = {
  /** Shows a translated message bottom-right for 6000 ms (SPEC.md §8). */
  notify(key: string, variant?: Variant, values?: Record<string, unknown>): void;
  /** Shows the translation of a failed call's code, or the fallback key. */
  notifyError(error: unknown, fallbackKey?: string): void;
};

const SnackbarContext = createContext<Notify | null>(null);

export function SnackbarProvider({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const [message, setMessage] = useState<Message | null>(null);

  const notify = useCallback<Notify['notify']>((key, variant = 'success', values) => {
    setMessage({ id: Date.now(), key, variant, values });
  }, []);

  const notifyError = useCallback<Notify['notifyError']>(
    (error, fallbackKey = 'errors.GENERAL_ERROR') => {
      const code = error instanceof ApiError ? error.code : 'GENERAL_ERROR';
      const key =
        code !== 'GENERAL_ERROR' && i18n.exists(`errors.${code}`) ? `errors.${code}` : fallbackKey;
      setMessage({ id: Date.now(), key, variant: 'error' });
    },
    [i18n],
  );

  const value = useMemo(() => ({ notify, notifyError }), [notify, notifyError]);

  return (
    <SnackbarContext.Provider value={value}>
      {children}
      <Snackbar
        key={message?.id}
        open={message !== null}
        autoHideDuration={SNACKBAR_HIDE_MS}
        onClose={(_, reason) => reason !== 'clickaway' && setMessage(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      >
        {message ? (
          <Alert
            severity={message.variant}
            variant="filled"
            onClose={() => setMessage(null)}
            sx={{ minWidth: 280 }}
          >
            {t(message.key, message.values)}
          </Alert>
        ) : undefined}
      </Snackbar>
    </SnackbarContext.Provider>
  );
}

export function useSnackbar(): Notify {
  const ctx = useContext(SnackbarContext);
  if (!ctx) throw new Error('useSnackbar outside SnackbarProvider');
  return ctx;
}
