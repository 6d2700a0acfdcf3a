import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Stack } from '@mui/material';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { loginSchema } from '../../../../shared/schemas/auth.js';
import { ApiError } from '../../api/client.js';
import { FormText } from '../../components/form/fields.js';
import { applyServerErrors } from '../../components/form/server-errors.js';
import { useAuth } from '../../lib/auth.js';
import { login } from './api/auth-api.js';
import { PasswordField } from './PasswordField.js';

type Input = z.input<typeof loginSchema>;

export function SignInForm() {
  const { t } = useTranslation();
  const { startSession } = useAuth();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string>();
  const { control, handleSubmit, setError, formState } = useForm<
    Input,
    unknown,
    z.output<typeof loginSchema>
  >({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(undefined);
    try {
      await startSession(await login(values));
      navigate('/', { replace: true });
    } catch (e) {
      if (applyServerErrors(e, setError, ['email', 'password'])) return;
      const code = e instanceof ApiError ? e.code : 'GENERAL_ERROR';
      setFailure(t(`errors.${code}`, { defaultValue: t('errors.GENERAL_ERROR') }));
    }
  });

  return (
    <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
      {failure && (
        <Alert severity="error" role="alert">
          {failure}
        </Alert>
      )}
      <FormText
        control={control}
        name="email"
        label={t('auth.email')}
        type="email"
        autoComplete="email"
        autoFocus
      />
      <PasswordField
        control={control}
        name="password"
        label={t('auth.password')}
        autoComplete="current-password"
      />
      <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting}>
        {t('auth.signIn')}
      </Button>
    </Stack>
  );
}
