import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  LinearProgress,
} from '@mui/material';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '../../../../../shared/errors.js';
import type { MyTest } from '../../../../../shared/schemas/player.js';
import { formatWindow } from '../lib/title.js';
import type { LoadErrorCode } from '../use-player-loader.js';
import { BackToMyTests } from './BackToMyTests.js';

/** A dialog the student cannot dismiss: the only way on is its buttons. */
function StuckDialog({
  title,
  children,
  actions,
}: {
  title: string;
  children: ReactNode;
  actions: ReactNode;
}) {
  const titleId = useId();
  return (
    <Dialog open aria-labelledby={titleId} maxWidth="xs" fullWidth>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>{children}</DialogContent>
      <DialogActions>{actions}</DialogActions>
    </Dialog>
  );
}

/** SPEC.md §8 test load errors: not active, already finished, general; back to My tests. */
export function LoadErrorDialog({
  code,
  test,
  onRetry,
}: {
  code: LoadErrorCode;
  test?: MyTest;
  onRetry: () => void;
}) {
  const { t, i18n } = useTranslation();
  const canRetry = code === 'GENERAL_ERROR' || code === 'OFFLINE';
  return (
    <StuckDialog
      title={t(`player.loadError.${code}.title`)}
      actions={
        <>
          {canRetry && <Button onClick={onRetry}>{t('list.retry')}</Button>}
          <BackToMyTests />
        </>
      }
    >
      <DialogContentText>{t(`player.loadError.${code}.text`)}</DialogContentText>
      {code === 'TEST_NOT_ACTIVE' && test && (
        <DialogContentText sx={{ mt: 1 }}>
          {t('player.loadError.window', {
            range: formatWindow(test.startDate, test.endDate, i18n.language),
          })}
        </DialogContentText>
      )}
    </StuckDialog>
  );
}

/** SPEC.md §8 answer save errors: the attempt takes no more answers (or a general refusal). */
export function EndedDialog({ code }: { code: ErrorCode | undefined }) {
  const { t } = useTranslation();
  const isOver = code === 'TEST_NOT_ACTIVE' || code === 'TEST_ALREADY_REVIEWED';
  return (
    <StuckDialog
      title={t(isOver ? 'player.ended.title' : 'player.saveError.title')}
      actions={<BackToMyTests />}
    >
      <DialogContentText>
        {t(isOver ? 'player.ended.text' : 'player.saveError.text')}
      </DialogContentText>
    </StuckDialog>
  );
}

/**
 * The server's time is over. Answers still on their way are sent (the server's grace) and the
 * server is asked for the attempt's state; the page never ends the test on its own.
 */
export function TimeUpDialog({
  pendingCount,
  offline,
}: {
  pendingCount: number;
  offline: boolean;
}) {
  const { t } = useTranslation();
  return (
    <StuckDialog title={t('player.timeUp.title')} actions={<BackToMyTests variant="text" />}>
      <DialogContentText>{t('player.timeUp.text')}</DialogContentText>
      {pendingCount > 0 && (
        <Alert severity={offline ? 'warning' : 'info'} sx={{ mt: 2 }}>
          {t(offline ? 'player.timeUp.pendingOffline' : 'player.timeUp.pending', {
            count: pendingCount,
          })}
        </Alert>
      )}
      <Box sx={{ mt: 2 }} role="status" aria-label={t('player.timeUp.waiting')}>
        <LinearProgress />
      </Box>
    </StuckDialog>
  );
}

type FinishProps = {
  open: boolean;
  total: number;
  unanswered: number[];
  busy: boolean;
  error: 'unsent' | 'failed' | undefined;
  onConfirm: () => void;
  onClose: () => void;
};

/** "Finish the test?" with the questions left unanswered; finishing is final (SPEC.md §4). */
export function FinishDialog({
  open,
  total,
  unanswered,
  busy,
  error,
  onConfirm,
  onClose,
}: FinishProps) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>{t('player.finish.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>
          {t('player.finish.answered', {
            answered: total - unanswered.length,
            total,
            count: total,
          })}
        </DialogContentText>
        {unanswered.length > 0 && (
          <Alert severity="warning" sx={{ mt: 2 }}>
            {t('player.finish.unanswered', {
              count: unanswered.length,
              list: unanswered.join(', '),
            })}
          </Alert>
        )}
        <DialogContentText sx={{ mt: 2 }}>{t('player.finish.final')}</DialogContentText>
        {busy && (
          <Box sx={{ mt: 2, display: 'flex', gap: 1, alignItems: 'center' }} role="status">
            <CircularProgress size={18} />
            <DialogContentText component="span">{t('player.finish.pending')}</DialogContentText>
          </Box>
        )}
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {t(`player.finish.${error}`)}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t('player.finish.keepGoing')}
        </Button>
        <Button onClick={onConfirm} disabled={busy} variant="contained" color="primary">
          {t('player.finish.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
