import { Alert, Button, Stack, TextField } from '@mui/material';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { TooManyAttemptsDetails } from '../../../../shared/schemas/auth.js';
import {
  checkSignIn,
  type SignInInput,
  type SignInIssues,
} from '../../../../shared/sign-in-check.js';
import { ApiError } from '../../api/client.js';
import { useAuth } from '../../lib/auth.js';
import { login } from './api/auth-api.js';
import { usePasswordToggle } from './PasswordToggle.js';

const FIELDS = ['email', 'password'] as const satisfies readonly (keyof SignInInput)[];

/** The field codes a failed call put on the sign-in fields (SPEC.md §5), the first of each. */
function serverIssues(e: unknown): SignInIssues {
  const issues: SignInIssues = {};
  if (!(e instanceof ApiError)) return issues;
  for (const field of FIELDS) {
    const code = e.fieldErrors[field]?.[0];
    if (code) issues[field] = code;
  }
  return issues;
}

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

/**
 * The sign-in form, without react-hook-form (about 14 kB of every student's first load): the
 * server's check (loginSchema) through checkSignIn, each field's first problem shown under it
 * once the form is sent and kept up to date while typing, the first wrong field focused.
 */
export function SignInForm() {
  const { t } = useTranslation();
  const { startSession } = useAuth();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string>();
  const [waitUntil, setWaitUntil] = useState<number>();
  const secondsLeft = useSecondsLeft(waitUntil);
  const waiting = secondsLeft > 0;
  const [values, setValues] = useState<SignInInput>({ email: '', password: '' });
  const [issues, setIssues] = useState<SignInIssues>({});
  const [sent, setSent] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const refs = { email: useRef<HTMLInputElement>(null), password: useRef<HTMLInputElement>(null) };
  const password = usePasswordToggle();

  const showIssues = (found: SignInIssues) => {
    setIssues(found);
    const first = FIELDS.find((f) => found[f]);
    if (first) refs[first].current?.focus();
  };

  const change = (field: keyof SignInInput) => (e: { target: { value: string } }) => {
    const next = { ...values, [field]: e.target.value };
    setValues(next);
    // Once sent, a field's message follows what is typed (as react-hook-form did).
    if (sent) {
      const checked = checkSignIn(next);
      const problem = 'issues' in checked ? checked.issues[field] : undefined;
      setIssues((old) => ({ ...old, [field]: problem }));
    }
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (submitting) return;
    setSent(true);
    const checked = checkSignIn(values);
    if ('issues' in checked) {
      showIssues(checked.issues);
      return;
    }
    setIssues({});
    setFailure(undefined);
    setWaitUntil(undefined);
    setSubmitting(true);
    try {
      await startSession(await login(checked.values));
      navigate('/', { replace: true });
    } catch (e) {
      const onFields = serverIssues(e);
      if (Object.keys(onFields).length > 0) {
        showIssues(onFields);
        return;
      }
      const retryAfter = retryAfterOf(e);
      if (retryAfter) {
        setWaitUntil(Date.now() + retryAfter * 1000);
        return;
      }
      const code = e instanceof ApiError ? e.code : 'GENERAL_ERROR';
      setFailure(t(`errors.${code}`, { defaultValue: t('errors.GENERAL_ERROR') }));
    } finally {
      setSubmitting(false);
    }
  };

  const field = (name: keyof SignInInput) => ({
    name,
    value: values[name],
    onChange: change(name),
    inputRef: refs[name],
    error: issues[name] !== undefined,
    helperText: issues[name] ? t(`error_${issues[name]}`) : undefined,
    fullWidth: true,
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
      <TextField
        {...field('email')}
        label={t('auth.email')}
        type="email"
        autoComplete="email"
        autoFocus
      />
      <TextField
        {...field('password')}
        {...password}
        label={t('auth.password')}
        autoComplete="current-password"
      />
      <Button type="submit" variant="contained" size="large" disabled={submitting || waiting}>
        {t('auth.signIn')}
      </Button>
    </Stack>
  );
}
