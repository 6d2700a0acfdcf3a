import { zodResolver } from '@hookform/resolvers/zod';
import { Avatar, Box, Button, Chip, Divider, Grid, Paper, Stack, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { BUCHAREST } from '../../../../shared/constants.js';
import { safePictureUrl } from '../../../../shared/picture.js';
import { profilePatchSchema } from '../../../../shared/schemas/users.js';
import { patchProfile } from '../../api/profile.js';
import { FormText } from '../../components/form/fields.js';
import {
  BirthAndGradeFields,
  DisciplineField,
  LocaleField,
  NameFields,
  PlaceFields,
  SectorField,
} from '../../components/form/person-fields.js';
import { applyServerErrors } from '../../components/form/server-errors.js';
import { useAuth } from '../../lib/auth.js';
import { useSnackbar } from '../../lib/snackbar.js';
import { MyDataCard } from './components/MyDataCard.js';
import { TeamCodeCard } from './components/TeamCodeCard.js';

const base = profilePatchSchema.shape;
const studentForm = z
  .object({
    familyName: base.familyName.unwrap(),
    givenName: base.givenName.unwrap(),
    dateOfBirth: base.dateOfBirth.unwrap(),
    county: base.county.unwrap(),
    bucharestSector: base.bucharestSector,
    city: base.city.unwrap(),
    school: base.school.unwrap(),
    grade: base.grade.unwrap(),
    locale: base.locale.unwrap(),
    occupation: base.occupation.unwrap(),
    // Optional: left empty, the student stays with their teacher; filled, it re-links them.
    teacherCode: z.preprocess((v) => (v === '' ? undefined : v), base.teacherCode),
  })
  // A Bucharest student completes their sector (the olympiad's places go by sector).
  .refine((s) => s.county !== BUCHAREST || (s.bucharestSector ?? null) !== null, {
    message: 'required',
    path: ['bucharestSector'],
  });
const teacherForm = z.object({
  familyName: base.familyName.unwrap(),
  givenName: base.givenName.unwrap(),
  county: base.county.unwrap(),
  city: base.city.unwrap(),
  school: base.school.unwrap(),
  discipline: base.discipline.unwrap(),
});
const adminForm = z.object({
  familyName: base.familyName.unwrap(),
  givenName: base.givenName.unwrap(),
});
type Input = Partial<
  Omit<z.input<typeof studentForm>, 'teacherCode'> & z.input<typeof teacherForm>
> & { teacherCode?: string };

/** /profil: the user's own details (SPEC.md §3), saved with PATCH /users/{email}. */
export function ProfilePage() {
  const { t, i18n } = useTranslation();
  const { user, setUser } = useAuth();
  const { notify, notifyError } = useSnackbar();
  const isStudent = user?.type === 'student';
  const isTeacher = user?.type === 'teacher';
  const schema = isStudent ? studentForm : isTeacher ? teacherForm : adminForm;
  const { control, handleSubmit, setError, formState, reset } = useForm<Input>({
    resolver: zodResolver(schema as z.ZodType<Input, Input>),
    defaultValues: {
      familyName: user?.familyName ?? '',
      givenName: user?.givenName ?? '',
      dateOfBirth: user?.dateOfBirth ?? '',
      county: (user?.county ?? undefined) as Input['county'],
      bucharestSector: user?.bucharestSector ?? undefined,
      city: user?.city ?? '',
      school: user?.school ?? '',
      grade: user?.grade ?? undefined,
      locale: (user?.locale ?? 'ro') as Input['locale'],
      occupation: user?.occupation ?? '',
      discipline: user?.discipline ?? '',
      teacherCode: '',
    },
  });
  if (!user) return null;

  const onSubmit = handleSubmit(async (values) => {
    // The team code goes only when typed: sending it re-links the student.
    const { teacherCode, ...rest } = values;
    const body = teacherCode ? { ...rest, teacherCode } : rest;
    try {
      const saved = await patchProfile(user.email, body);
      setUser(saved);
      reset({ ...values, teacherCode: '' });
      notify('update_msg_profile');
    } catch (e) {
      if (!applyServerErrors(e, setError, Object.keys(schema.shape)))
        notifyError(e, 'msg_change_error');
    }
  });

  const fullName = [user.familyName, user.givenName].filter(Boolean).join(' ');
  const since = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' }).format(
    new Date(user.createdAt),
  );

  return (
    <Stack spacing={3} sx={{ maxWidth: 900, mx: 'auto' }}>
      <Paper sx={{ p: 3, display: 'flex', gap: 3, alignItems: 'center', flexWrap: 'wrap' }}>
        <Avatar
          src={safePictureUrl(user.picture) ?? '/avatar.svg'}
          alt=""
          sx={{ width: 80, height: 80 }}
        />
        <Box sx={{ flex: 1, minWidth: 200 }}>
          <Typography variant="h5" component="h1">
            {t('profile.title')}
          </Typography>
          <Typography sx={{ fontWeight: 600 }}>{fullName}</Typography>
          <Typography color="text.secondary">{user.email}</Typography>
          <Typography variant="body2" color="text.secondary">
            {t('profile.memberSince', { date: since })}
          </Typography>
        </Box>
        <Stack direction="row" spacing={1}>
          <Chip label={t(`roles.${user.type}`)} color="primary" variant="outlined" />
          <Chip
            label={t(`states.${user.state}`)}
            color={user.state === 'active' ? 'success' : 'default'}
            variant="outlined"
          />
          {user.teacherCode && (
            <Chip label={`${t('fields.teacherCode')}: ${user.teacherCode}`} variant="outlined" />
          )}
        </Stack>
      </Paper>
      <Paper sx={{ p: 3 }}>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {t('profile.personal')}
        </Typography>
        <Grid component="form" container spacing={2} onSubmit={onSubmit} noValidate>
          <NameFields control={control} />
          {isStudent && <BirthAndGradeFields control={control} />}
          {(isStudent || isTeacher) && <PlaceFields control={control} />}
          {isStudent && <SectorField control={control} />}
          {isStudent && (
            <>
              <LocaleField control={control} />
              <Grid size={{ xs: 12, sm: 6 }}>
                <FormText control={control} name="occupation" label={t('fields.occupation')} />
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <FormText
                  control={control}
                  name="teacherCode"
                  label={t('fields.teacherCode')}
                  helperText={t('profile.teamCode.studentHint')}
                  autoComplete="off"
                  slotProps={{
                    htmlInput: { maxLength: 20, style: { textTransform: 'uppercase' } },
                  }}
                />
              </Grid>
            </>
          )}
          {isTeacher && <DisciplineField control={control} />}
          <Grid size={12}>
            <Divider sx={{ mb: 2 }} />
            <Button
              type="submit"
              variant="contained"
              disabled={formState.isSubmitting || !formState.isDirty}
            >
              {formState.isSubmitting ? t('profile.saving') : t('profile.save')}
            </Button>
          </Grid>
        </Grid>
      </Paper>
      {isTeacher && <TeamCodeCard user={user} onSaved={setUser} />}
      <MyDataCard />
    </Stack>
  );
}
