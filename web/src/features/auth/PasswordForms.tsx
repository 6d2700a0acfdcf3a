import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Stack } from '@mui/material';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { UiLocale } from '../../../../shared/constants.js';
import { forgotPasswordSchema, resetPasswordSchema } from '../../../../shared/schemas/auth.js';
import { FormText } from '../../components/form/fields.js';
import { applyServerErrors } from '../../components/form/server-errors.js';
import { useSnackbar } from '../../lib/snackbar.js';
import { forgotPassword, resetPassword } from './api/auth-api.js';
import { PasswordField } from './PasswordField.js';

const forgotForm = forgotPasswordSchema.pick({ email: true });

export function ForgotForm({ onDone }: { onDone(email: string): void }) {
  const { t, i18n } = useTranslation();
  const { notifyError } = useSnackbar();
  const { control, handleSubmit, setError, formState } = useForm<
    z.input<typeof forgotForm>,
    unknown,
    z.output<typeof forgotForm>
  >({ resolver: zodResolver(forgotForm), defaultValues: { email: '' } });

  const onSubmit = handleSubmit(async ({ email }) => {
    try {
      await forgotPassword({ email, locale: i18n.language as UiLocale });
      onDone(email);
    } catch (e) {
      if (!applyServerErrors(e, setError, ['email'])) notifyError(e);
    }
  });

  return (
    <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
      <FormText
        control={control}
        name="email"
        label={t('auth.email')}
        type="email"
        autoComplete="email"
        autoFocus
      />
      <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting}>
        {t('auth.sendReset')}
      </Button>
    </Stack>
  );
}

const resetForm = resetPasswordSchema.pick({ password: true });

export function ResetForm({ uid, code, onDone }: { uid: string; code: string; onDone(): void }) {
  const { t } = useTranslation();
  const { notifyError } = useSnackbar();
  const { control, handleSubmit, setError, formState } = useForm<
    z.input<typeof resetForm>,
    unknown,
    z.output<typeof resetForm>
  >({ resolver: zodResolver(resetForm), defaultValues: { password: '' } });

  const onSubmit = handleSubmit(async ({ password }) => {
    try {
      await resetPassword({ uid, code, password });
      onDone();
    } catch (e) {
      if (!applyServerErrors(e, setError, ['password'])) notifyError(e);
    }
  });

  return (
    <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
      <PasswordField
        control={control}
        name="password"
        label={t('auth.newPassword')}
        autoComplete="new-password"
        helperText={t('auth.passwordHint')}
      />
      <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting}>
        {t('auth.savePassword')}
      </Button>
    </Stack>
  );
}
