import Refresh from '@mui/icons-material/Refresh';
import {
  Alert,
  Box,
  Button,
  Chip,
  LinearProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ThrottleView } from '../../../../shared/schemas/auth.js';
import { ConfirmDialog } from '../../components/list/ConfirmDialog.js';
import { useSnackbar } from '../../lib/snackbar.js';
import { useClearThrottle, useThrottles } from './api/throttles.js';

/** A time today as hh:mm:ss, another day with its date, in the interface language. */
function formatWhen(iso: string, language: string): string {
  const date = new Date(iso);
  const sameDay = date.toDateString() === new Date().toDateString();
  return new Intl.DateTimeFormat(
    language,
    sameDay ? { timeStyle: 'medium' } : { dateStyle: 'medium', timeStyle: 'medium' },
  ).format(date);
}

/**
 * Admins: who is made to wait at sign-in (an account at an address, an account from
 * everywhere, an address across accounts), and the button that lets them in at once.
 */
export function ThrottlesPage() {
  const { t, i18n } = useTranslation();
  const { notify, notifyError } = useSnackbar();
  const throttles = useThrottles();
  const clear = useClearThrottle();
  const [asked, setAsked] = useState<ThrottleView | null>(null);

  const who = (row: ThrottleView) =>
    [row.email, row.address].filter(Boolean).join(` ${t('throttles.from')} `);

  const onConfirm = () => {
    if (!asked) return;
    clear.mutate(asked._id, {
      onSuccess: () => notify('throttles.cleared'),
      onError: (e) => notifyError(e),
      onSettled: () => setAsked(null),
    });
  };

  const rows = throttles.data;
  return (
    <Stack spacing={2}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Box sx={{ flex: 1, minWidth: 240 }}>
          <Typography variant="h5" component="h1">
            {t('throttles.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('throttles.intro')}
          </Typography>
        </Box>
        <Button
          variant="outlined"
          startIcon={<Refresh />}
          onClick={() => void throttles.refetch()}
          disabled={throttles.isFetching}
        >
          {t('throttles.refresh')}
        </Button>
      </Box>
      <Paper variant="outlined">
        {throttles.isFetching && <LinearProgress />}
        {throttles.isError && (
          <Alert
            severity="error"
            action={<Button onClick={() => void throttles.refetch()}>{t('list.retry')}</Button>}
          >
            {t('throttles.loadFailed')}
          </Alert>
        )}
        <TableContainer>
          <Table size="small" aria-label={t('throttles.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('throttles.scope')}</TableCell>
                <TableCell>{t('throttles.who')}</TableCell>
                <TableCell align="right">{t('throttles.failures')}</TableCell>
                <TableCell>{t('throttles.lastFailure')}</TableCell>
                <TableCell>{t('throttles.until')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {rows?.length === 0 && (
                <TableRow>
                  <TableCell colSpan={6}>
                    <Typography color="text.secondary">{t('throttles.empty')}</Typography>
                  </TableCell>
                </TableRow>
              )}
              {rows?.map((row) => (
                <TableRow key={row._id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {t(`throttles.scopes.${row.scope}`)}
                  </TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>{who(row)}</TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {row.scope === 'address'
                      ? t('throttles.accounts', { count: row.failures })
                      : row.failures}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {formatWhen(row.lastFailureAt, i18n.language)}
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    {row.blockedUntil ? (
                      <Chip
                        size="small"
                        color="warning"
                        label={formatWhen(row.blockedUntil, i18n.language)}
                      />
                    ) : (
                      t('throttles.notWaiting')
                    )}
                  </TableCell>
                  <TableCell align="right">
                    <Button
                      size="small"
                      onClick={() => setAsked(row)}
                      aria-label={t('throttles.clearFor', { who: who(row) })}
                    >
                      {t('throttles.clear')}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>
      <ConfirmDialog
        open={asked !== null}
        title={t('throttles.confirmTitle')}
        message={t('throttles.confirmText', { who: asked ? who(asked) : '' })}
        confirmLabel={t('throttles.clear')}
        busy={clear.isPending}
        onConfirm={onConfirm}
        onClose={() => setAsked(null)}
      />
    </Stack>
  );
}
