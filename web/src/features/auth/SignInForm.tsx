import { Alert, Button, Stack } from '@mui/material';
import { useEffect, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { TooManyAttemptsDetails } from '../../../../shared/schemas/auth.js';
import { checkSignIn, type SignInInput } from '../../../../shared/sign-in-check.js';
import { ApiError } from '../../api/client.js';
import { FormText } from '../../components/form/fields.js';
import { applyServerErrors } from '../../components/form/server-errors.js';
import { useAuth } from '../../lib/auth.js';
import { login } from './api/auth-api.js';
import { PasswordField } from './PasswordField.js';

/** The server's sign-in check (loginSchema) without zod, which the sign-in page does not fetch. */
const resolver: Resolver<SignInInput> = async (input) => {
  const checked = checkSignIn(input);
  if ('values' in checked) return { values: checked.values, errors: {} };
  const errors = Object.fromEntries(
    Object.entries(checked.issues).map(([field, code]) => [field, { type: code, message: code }]),
  );
  return { values: {}, errors };
};

/** Seconds the server asked to wait (TOO_MANY_ATTEMPTS details), or undefined. */
function retryAfterOf(e: unknown): number | undefined {
  if (!(e instanceof ApiError) || e.code !== 'TOO_MANY_ATTEMPTS') return undefined;
  const seconds = (e.details as Partial<TooManyAttemptsDetails> | undefined)?.retryAfter;
  return typeof seconds === 'number' && seconds > 0 ? seconds : undefined;
}

/** Seconds left until `until` (ms), counted down once a second; 0 once it has passed. */
function useSecondsLeft(until: number | undefined): number {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const left = () => (until ? Math.max(0, Math.ceil((until - Date.now()) / 1000)) : 0);
    setSeconds(left());
    if (!until) return;
    const timer = setInterval(() => setSeconds(left()), 1000);
    return () => clearInterval(timer);
  }, [until]);
  return seconds;
}

export function SignInForm() {
  const { t } = useTranslation();
  const { startSession } = useAuth();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string>();
  const [waitUntil, setWaitUntil] = useState<number>();
  const secondsLeft = useSecondsLeft(waitUntil);
  const waiting = secondsLeft > 0;
  const { control, handleSubmit, setError, formState } = useForm<SignInInput>({
    resolver,
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFailure(undefined);
    setWaitUntil(undefined);
    try {
      await startSession(await login(values));
      navigate('/', { replace: true });
    } catch (e) {
      if (applyServerErrors(e, setError, ['email', 'password'])) return;
      const retryAfter = retryAfterOf(e);
      if (retryAfter) {
        setWaitUntil(Date.now() + retryAfter * 1000);
        return;
      }
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
      {waiting && (
        <Alert severity="warning" role="alert">
          {secondsLeft < 60
            ? t('auth.waitSeconds', { count: secondsLeft })
            : t('auth.waitMinutes', { count: Math.ceil(secondsLeft / 60) })}
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
      <Button
        type="submit"
        variant="contained"
        size="large"
        disabled={formState.isSubmitting || waiting}
      >
        {t('auth.signIn')}
      </Button>
    </Stack>
  );
}
