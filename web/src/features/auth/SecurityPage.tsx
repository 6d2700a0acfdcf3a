import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Box,
  Button,
  Chip,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { type AccountSession, changePasswordSchema } from '../../../../shared/schemas/auth.js';
import { applyServerErrors } from '../../components/form/server-errors.js';
import { ConfirmDialog } from '../../components/list/index.js';
import { QueryStatus } from '../../components/QueryStatus.js';
import { useSnackbar } from '../../lib/snackbar.js';
import { changePassword, useEndSessions, useSessions } from './api/account.js';
import { describeDevice } from './device.js';
import { PasswordField } from './PasswordField.js';

type Form = z.input<typeof changePasswordSchema>;

function ChangePasswordCard() {
  const { t } = useTranslation();
  const { notify, notifyError } = useSnackbar();
  const sessions = useSessions();
  const { control, handleSubmit, setError, formState, reset } = useForm<
    Form,
    unknown,
    z.output<typeof changePasswordSchema>
  >({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { currentPassword: '', password: '' },
  });
  const onSubmit = handleSubmit(async (body) => {
    try {
      const { ended } = await changePassword(body);
      reset();
      notify('account.passwordChanged', 'success', { count: ended });
      await sessions.refetch();
    } catch (e) {
      if (!applyServerErrors(e, setError, ['currentPassword', 'password'])) notifyError(e);
    }
  });
  return (
    <Paper sx={{ p: 3 }} component="section" aria-labelledby="password-title">
      <Typography id="password-title" variant="h6" component="h2" gutterBottom>
        {t('account.passwordTitle')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('account.passwordIntro')}
      </Typography>
      <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate sx={{ maxWidth: 420 }}>
        <PasswordField
          control={control}
          name="currentPassword"
          label={t('account.currentPassword')}
          autoComplete="current-password"
        />
        <PasswordField
          control={control}
          name="password"
          label={t('auth.newPassword')}
          autoComplete="new-password"
          helperText={t('auth.passwordHint')}
        />
        <Box>
          <Button type="submit" variant="contained" disabled={formState.isSubmitting}>
            {t('account.changePassword')}
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
}

function SessionsCard() {
  const { t, i18n } = useTranslation();
  const { notify, notifyError } = useSnackbar();
  const sessions = useSessions();
  const end = useEndSessions();
  const [asking, setAsking] = useState<'others' | AccountSession | null>(null);
  const when = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date(iso),
    );
  const name = (s: AccountSession) => {
    const { browser, system } = describeDevice(s.userAgent);
    if (!browser && !system) return t('account.unknownDevice');
    return [browser ?? t('account.unknownBrowser'), system].filter(Boolean).join(' · ');
  };
  const rows = sessions.data ?? [];
  const others = rows.filter((s) => !s.current).length;

  const confirm = async () => {
    if (!asking) return;
    try {
      const { ended } = await end.mutateAsync(asking === 'others' ? 'others' : asking._id);
      notify('account.sessionsEnded', 'success', { count: ended });
      setAsking(null);
    } catch (e) {
      notifyError(e);
    }
  };

  return (
    <Paper sx={{ p: 3 }} component="section" aria-labelledby="sessions-title">
      <Typography id="sessions-title" variant="h6" component="h2" gutterBottom>
        {t('account.sessionsTitle')}
      </Typography>
      <Typography color="text.secondary">{t('account.sessionsIntro')}</Typography>
      <QueryStatus query={sessions} empty={t('account.onlyThis')} />
      {sessions.isSuccess && (
        <>
          <List aria-labelledby="sessions-title">
            {rows.map((s) => (
              <ListItem
                key={s._id}
                divider
                secondaryAction={
                  s.current ? undefined : (
                    <Button
                      color="error"
                      onClick={() => setAsking(s)}
                      aria-label={`${t('account.endSession')}: ${name(s)}`}
                    >
                      {t('account.endSession')}
                    </Button>
                  )
                }
              >
                <ListItemText
                  primary={
                    <Box component="span" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
                      {name(s)}
                      {s.current && (
                        <Chip size="small" color="primary" label={t('account.thisSession')} />
                      )}
                    </Box>
                  }
                  secondary={t('account.sessionTimes', {
                    lastSeen: when(s.lastSeenAt),
                    created: when(s.createdAt),
                  })}
                />
              </ListItem>
            ))}
          </List>
          {others > 0 ? (
            <Button variant="outlined" color="error" onClick={() => setAsking('others')}>
              {t('account.endOthers', { count: others })}
            </Button>
          ) : (
            <Alert severity="info" variant="outlined">
              {t('account.onlyThis')}
            </Alert>
          )}
        </>
      )}
      <ConfirmDialog
        open={asking !== null}
        title={asking === 'others' ? t('account.endOthersTitle') : t('account.endSessionTitle')}
        message={
          asking === 'others'
            ? t('account.endOthersText', { count: others })
            : t('account.endSessionText', { device: asking ? name(asking) : '' })
        }
        confirmLabel={
          asking === 'others' ? t('account.endOthers', { count: others }) : t('account.endSession')
        }
        destructive
        busy={end.isPending}
        onConfirm={confirm}
        onClose={() => setAsking(null)}
      />
    </Paper>
  );
}

/** `/cont/securitate`: the signed-in user's password and the sessions their account is open in. */
export function SecurityPage() {
  const { t } = useTranslation();
  return (
    <Stack spacing={3}>
      <Typography variant="h4" component="h1">
        {t('account.title')}
      </Typography>
      <ChangePasswordCard />
      <SessionsCard />
    </Stack>
  );
}
