import {
  Alert,
  Box,
  CircularProgress,
  Divider,
  Link,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  OIDC_ERROR_REASONS,
  type OidcErrorReason,
} from '../../../../shared/schemas/auth-values.js';
import { useAuth } from '../../lib/auth.js';
import { oidcInfo } from './api/auth-api.js';
import { OidcSignIn } from './OidcSignIn.js';
import { SignInForm } from './SignInForm.js';

// Signing up and a forgotten password are chunks of their own: they check their fields with the
// shared schemas (zod), which the sign-in form, the one students use on exam day, does without.
const SignUpForm = lazy(() => import('./SignUpForm.js').then((m) => ({ default: m.SignUpForm })));
const ForgotForm = lazy(() =>
  import('./PasswordForms.js').then((m) => ({ default: m.ForgotForm })),
);
const ResetForm = lazy(() => import('./PasswordForms.js').then((m) => ({ default: m.ResetForm })));

type Mode = 'signin' | 'signup' | 'forgot' | 'reset';

function initialMode(): { mode: Mode; uid?: string; code?: string } {
  const q = new URLSearchParams(window.location.search);
  const uid = q.get('uid');
  const code = q.get('code');
  if (q.get('mode') === 'reset' && uid && code) return { mode: 'reset', uid, code };
  return { mode: q.get('mode') === 'signup' ? 'signup' : 'signin' };
}

/** Why a school sign-in came back unfinished (`?oidcError=`), if it did. */
function oidcErrorFromUrl(): OidcErrorReason | undefined {
  const reason = new URLSearchParams(window.location.search).get('oidcError');
  return OIDC_ERROR_REASONS.find((r) => r === reason);
}

/** `/` for guests: sign in, sign up, forgotten password and the reset link's form. */
export function WelcomePage() {
  const { t } = useTranslation();
  const { linkError } = useAuth();
  const [state, setState] = useState(initialMode);
  const [notice, setNotice] = useState<string>();
  const [oidcError] = useState(oidcErrorFromUrl);
  const oidc = useQuery({ queryKey: ['auth', 'oidc'], queryFn: oidcInfo, staleTime: Infinity });

  const go = (mode: Mode, message?: string) => {
    setNotice(message);
    setState({ mode });
    if (window.location.search) window.history.replaceState(null, '', '/');
  };

  const titles: Record<Mode, string> = {
    signin: t('auth.signInTitle'),
    signup: t('auth.signUpTitle'),
    forgot: t('auth.forgotTitle'),
    reset: t('auth.resetTitle'),
  };

  return (
    <Paper sx={{ p: { xs: 3, sm: 4 }, width: '100%', maxWidth: 440 }} elevation={3}>
      <Typography variant="h5" component="h1" gutterBottom>
        {titles[state.mode]}
      </Typography>
      {oidcError && !notice && (
        <Alert severity="warning" sx={{ mb: 2 }} role="alert">
          {t(`auth.oidcErrors.${oidcError}`)}
        </Alert>
      )}
      {linkError && !notice && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {t(`errors.${linkError.code}`, { defaultValue: t('auth.linkInvalid') })}
        </Alert>
      )}
      {notice && (
        <Alert severity="success" sx={{ mb: 2 }} role="status">
          {notice}
        </Alert>
      )}
      {state.mode === 'signin' && <SignInForm />}
      <Suspense
        fallback={
          <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
            <CircularProgress size={32} aria-label={t('app.loading')} />
          </Box>
        }
      >
        {state.mode === 'signup' && (
          <SignUpForm onDone={(email) => go('signin', t('auth.signupSent', { email }))} />
        )}
        {state.mode === 'forgot' && (
          <ForgotForm onDone={(email) => go('signin', t('auth.forgotSent', { email }))} />
        )}
        {state.mode === 'reset' && state.uid && state.code && (
          <ResetForm
            uid={state.uid}
            code={state.code}
            onDone={() => go('signin', t('auth.resetDone'))}
          />
        )}
      </Suspense>

      {(state.mode === 'signin' || state.mode === 'signup') && oidc.data?.enabled && (
        <>
          <Divider sx={{ my: 2 }}>{t('auth.or')}</Divider>
          <OidcSignIn label={oidc.data.label} />
        </>
      )}

      <Stack spacing={1} sx={{ mt: 3 }}>
        {state.mode !== 'signin' && (
          <Link component="button" type="button" onClick={() => go('signin')} underline="hover">
            {t('auth.backToSignIn')}
          </Link>
        )}
        {state.mode === 'signin' && (
          <>
            <Link component="button" type="button" onClick={() => go('forgot')} underline="hover">
              {t('auth.toForgot')}
            </Link>
            <Link component="button" type="button" onClick={() => go('signup')} underline="hover">
              {t('auth.toSignUp')}
            </Link>
          </>
        )}
      </Stack>
      <Box />
    </Paper>
  );
}
