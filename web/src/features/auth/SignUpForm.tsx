import { zodResolver } from '@hookform/resolvers/zod';
import {
  Button,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
} from '@mui/material';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { UiLocale } from '../../../../shared/constants.js';
import { signupSchema } from '../../../../shared/schemas/auth.js';
import { FormText } from '../../components/form/fields.js';
import { applyServerErrors } from '../../components/form/server-errors.js';
import { useSnackbar } from '../../lib/snackbar.js';
import { signup } from './api/auth-api.js';
import { PasswordField } from './PasswordField.js';

type Input = z.input<typeof signupSchema>;

export function SignUpForm({ onDone }: { onDone(email: string): void }) {
  const { t, i18n } = useTranslation();
  const { notifyError } = useSnackbar();
  const { control, handleSubmit, setError, formState } = useForm<
    Input,
    unknown,
    z.output<typeof signupSchema>
  >({
    resolver: zodResolver(signupSchema),
    defaultValues: { email: '', password: '', type: 'student', locale: i18n.language as UiLocale },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      await signup({ ...values, locale: i18n.language as UiLocale });
      onDone(values.email);
    } catch (e) {
      if (!applyServerErrors(e, setError, ['email', 'password', 'type'])) notifyError(e);
    }
  });

  return (
    <Stack component="form" spacing={2} onSubmit={onSubmit} noValidate>
      <Controller
        control={control}
        name="type"
        render={({ field }) => (
          <FormControl>
            <FormLabel id="signup-type">{t('auth.accountType')}</FormLabel>
            <RadioGroup row aria-labelledby="signup-type" {...field}>
              <FormControlLabel value="student" control={<Radio />} label={t('auth.typeStudent')} />
              <FormControlLabel value="teacher" control={<Radio />} label={t('auth.typeTeacher')} />
            </RadioGroup>
          </FormControl>
        )}
      />
      <FormText
        control={control}
        name="email"
        label={t('auth.email')}
        type="email"
        autoComplete="email"
      />
      <PasswordField
        control={control}
        name="password"
        label={t('auth.password')}
        autoComplete="new-password"
        helperText={t('auth.passwordHint')}
      />
      <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting}>
        {t('auth.signUp')}
      </Button>
    </Stack>
  );
}
