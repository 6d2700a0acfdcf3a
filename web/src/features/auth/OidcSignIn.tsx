import Login from '@mui/icons-material/Login';
import { Button, Stack, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { oidcStartUrl } from './api/auth-api.js';

/**
 * The school sign-in button, with the choice a new account needs: student or teacher. The
 * choice matters only when the school account has no Podium account yet.
 */
export function OidcSignIn({ label }: { label: string }) {
  const { t } = useTranslation();
  const [type, setType] = useState<'student' | 'teacher'>('student');
  const captionId = useId();
  return (
    <Stack spacing={1.5}>
      <Typography id={captionId} variant="body2" color="text.secondary">
        {t('auth.oidcTypeCaption')}
      </Typography>
      <ToggleButtonGroup
        exclusive
        fullWidth
        size="small"
        color="primary"
        value={type}
        aria-labelledby={captionId}
        onChange={(_, next: 'student' | 'teacher' | null) => next && setType(next)}
      >
        <ToggleButton value="student">{t('auth.oidcAsStudent')}</ToggleButton>
        <ToggleButton value="teacher">{t('auth.oidcAsTeacher')}</ToggleButton>
      </ToggleButtonGroup>
      <Button fullWidth variant="outlined" startIcon={<Login />} href={oidcStartUrl(type)}>
        {t('auth.oidc', { label })}
      </Button>
    </Stack>
  );
}
