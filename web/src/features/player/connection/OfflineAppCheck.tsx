import CheckCircle from '@mui/icons-material/CheckCircle';
import Download from '@mui/icons-material/Download';
import ErrorIcon from '@mui/icons-material/Error';
import Info from '@mui/icons-material/Info';
import { Alert, Box, Button, LinearProgress, Typography } from '@mui/material';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  offlineAppStatus,
  RELEASE,
  type SaveProgress,
  saveOfflineApp,
} from '../../../lib/offline-app.js';

type State =
  | { kind: 'checking' }
  | { kind: 'saving'; progress: SaveProgress }
  | { kind: 'saved' | 'absent' | 'failed' | 'unsupported' };

/**
 * Whether the exam app is kept on this device, saving it when it is not: on exam day the
 * device then fetches only API calls (lib/offline-app.ts, src/sw.ts).
 */
export function OfflineAppCheck() {
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ kind: 'checking' });
  const alive = useRef(true);

  const save = useCallback(async () => {
    setState({ kind: 'saving', progress: { done: 0, total: undefined } });
    const reached = await saveOfflineApp((progress) => {
      if (alive.current) setState({ kind: 'saving', progress });
    });
    if (!alive.current) return;
    setState({ kind: reached === 'absent' ? 'failed' : reached });
  }, []);

  useEffect(() => {
    alive.current = true;
    void offlineAppStatus().then((status) => {
      if (!alive.current) return;
      if (status === 'absent') void save();
      else setState({ kind: status });
    });
    return () => {
      alive.current = false;
    };
  }, [save]);

  const { done = 0, total } = state.kind === 'saving' ? state.progress : {};
  return (
    <Box component="section" aria-labelledby="offline-app-title" sx={{ mt: 3 }}>
      <Typography id="offline-app-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('connection.app.title')}
      </Typography>
      {state.kind === 'checking' && <Typography>{t('connection.app.checking')}</Typography>}
      {state.kind === 'saving' && (
        <Box role="status" data-testid="offline-app" data-state="saving">
          <Typography>{t('connection.app.saving')}</Typography>
          <LinearProgress
            aria-label={t('connection.app.saving')}
            variant={total ? 'determinate' : 'indeterminate'}
            value={total ? (100 * done) / total : undefined}
            sx={{ my: 1 }}
          />
          {total !== undefined && (
            <Typography variant="body2" color="text.secondary">
              {t('connection.app.progress', { done, total, count: total })}
            </Typography>
          )}
        </Box>
      )}
      {state.kind === 'saved' && (
        <Alert
          icon={<CheckCircle />}
          severity="success"
          data-testid="offline-app"
          data-state="saved"
        >
          {t('connection.app.saved')}
          {RELEASE && ` ${t('connection.app.release', { release: RELEASE })}`}
        </Alert>
      )}
      {(state.kind === 'absent' || state.kind === 'failed') && (
        <>
          <Alert
            icon={<ErrorIcon />}
            severity={state.kind === 'failed' ? 'error' : 'warning'}
            data-testid="offline-app"
            data-state={state.kind}
          >
            {t(`connection.app.${state.kind}`)}
          </Alert>
          <Button
            variant="outlined"
            startIcon={<Download />}
            onClick={() => void save()}
            sx={{ mt: 1.5 }}
          >
            {t('connection.app.save')}
          </Button>
        </>
      )}
      {state.kind === 'unsupported' && (
        <Alert icon={<Info />} severity="info" data-testid="offline-app" data-state="unsupported">
          {t('connection.app.unsupported')}
        </Alert>
      )}
    </Box>
  );
}
