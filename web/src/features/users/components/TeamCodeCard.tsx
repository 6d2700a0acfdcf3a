import { zodResolver } from '@hookform/resolvers/zod';
import { Box, Button, Chip, Paper, Stack, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { teacherCodeBodySchema } from '../../../../../shared/schemas/people.js';
import type { User } from '../../../../../shared/schemas/users.js';
import { FormText } from '../../../components/form/fields.js';
import { applyServerErrors } from '../../../components/form/server-errors.js';
import { useSnackbar } from '../../../lib/snackbar.js';
import { changeTeacherCode } from '../api/change-teacher-code.js';

type Input = z.input<typeof teacherCodeBodySchema>;
type Output = z.output<typeof teacherCodeBodySchema>;

type Props = { user: User; onSaved: (user: User) => void };

/**
 * A teacher's team code: shows the current one and changes it (PUT /users/{email}/teacher-
 * codes). A taken code lands on the field ('Codul există deja'); students stay linked.
 */
export function TeamCodeCard({ user, onSaved }: Props) {
  const { t } = useTranslation();
  const { notify, notifyError } = useSnackbar();
  const { control, handleSubmit, setError, formState, reset } = useForm<Input, unknown, Output>({
    resolver: zodResolver(teacherCodeBodySchema),
    defaultValues: { teacherCode: '' },
  });

  const onSubmit = handleSubmit(async (values) => {
    try {
      onSaved(await changeTeacherCode(user.email, values));
      reset({ teacherCode: '' });
      notify('profile.teamCode.changed');
    } catch (e) {
      if (!applyServerErrors(e, setError, ['teacherCode'])) notifyError(e, 'msg_change_error');
    }
  });

  return (
    <Paper sx={{ p: 3 }} component="section" aria-labelledby="team-code-title">
      <Typography id="team-code-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('fields.teacherCodes')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('profile.teamCode.teacherHint')}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ mb: 3, alignItems: 'center' }}>
        <Typography>{t('profile.teamCode.current')}</Typography>
        {user.teacherCode ? (
          <Chip label={user.teacherCode} color="primary" data-testid="team-code" />
        ) : (
          <Typography color="text.secondary">—</Typography>
        )}
      </Stack>
      <Box
        component="form"
        onSubmit={onSubmit}
        noValidate
        sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap' }}
      >
        <Box sx={{ flex: '1 1 240px', maxWidth: 360 }}>
          <FormText
            control={control}
            name="teacherCode"
            label={t('profile.teamCode.newCode')}
            required
            autoComplete="off"
            slotProps={{ htmlInput: { maxLength: 20, style: { textTransform: 'uppercase' } } }}
          />
        </Box>
        <Button type="submit" variant="contained" disabled={formState.isSubmitting} sx={{ mt: 1 }}>
          {t('profile.teamCode.change')}
        </Button>
      </Box>
    </Paper>
  );
}
