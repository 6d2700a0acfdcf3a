import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Grid, Paper, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { registerStudentSchema, registerTeacherSchema } from '../../../../shared/schemas/auth.js';
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
import { register } from './api/auth-api.js';

type StudentInput = z.input<typeof registerStudentSchema>;
type TeacherInput = z.input<typeof registerTeacherSchema>;

const STUDENT_FIELDS = [
  'givenName',
  'familyName',
  'dateOfBirth',
  'county',
  'bucharestSector',
  'city',
  'school',
  'grade',
  'locale',
  'teacherCode',
  'occupation',
];
const TEACHER_FIELDS = [
  'givenName',
  'familyName',
  'county',
  'city',
  'school',
  'discipline',
  'teacherCode',
];

function useRegister(fields: string[]) {
  const { completeRegistration } = useAuth();
  const { notify } = useSnackbar();
  const navigate = useNavigate();
  return async (values: object, setError: Parameters<typeof applyServerErrors>[1]) => {
    try {
      completeRegistration(await register(values as StudentInput));
      navigate('/', { replace: true });
    } catch (e) {
      if (!applyServerErrors(e, setError, fields)) notify('errors.generic_warning', 'warning');
    }
  };
}

function Frame({ title, children }: { title: string; children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <Paper sx={{ p: { xs: 2, sm: 4 }, maxWidth: 760, mx: 'auto' }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {title}
      </Typography>
      <Alert severity="info" sx={{ mb: 3 }}>
        {t('register.intro')}
      </Alert>
      {children}
    </Paper>
  );
}

/** /inregistrare/elev: the student's profile, with the coordinating teacher's team code. */
export function RegisterStudentPage() {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
  const submit = useRegister(STUDENT_FIELDS);
  const { control, handleSubmit, setError, formState } = useForm<
    StudentInput,
    unknown,
    z.output<typeof registerStudentSchema>
  >({
    resolver: zodResolver(registerStudentSchema),
    defaultValues: {
      givenName: user?.givenName ?? '',
      familyName: user?.familyName ?? '',
      dateOfBirth: '',
      city: '',
      school: '',
      locale: (i18n.language === 'en' ? 'ro' : i18n.language) as 'ro',
      teacherCode: '',
      occupation: '',
    },
  });
  const onSubmit = handleSubmit((v) => submit(v, setError as never));

  return (
    <Frame title={t('register.studentTitle')}>
      <Grid component="form" container spacing={2} onSubmit={onSubmit} noValidate>
        <NameFields control={control} />
        <BirthAndGradeFields control={control} />
        <PlaceFields control={control} />
        <SectorField control={control} />
        <LocaleField control={control} />
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormText
            control={control}
            name="teacherCode"
            label={t('fields.teacherCode')}
            required
            helperText={t('register.teacherCodeStudentHint')}
          />
        </Grid>
        <Grid size={12}>
          <FormText control={control} name="occupation" label={t('fields.occupation')} />
        </Grid>
        <Grid size={12}>
          <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting}>
            {t('register.submit')}
          </Button>
        </Grid>
      </Grid>
    </Frame>
  );
}

/** /inregistrare/profesor: the teacher's profile and the team code they choose. */
export function RegisterTeacherPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const submit = useRegister(TEACHER_FIELDS);
  const { control, handleSubmit, setError, formState } = useForm<
    TeacherInput,
    unknown,
    z.output<typeof registerTeacherSchema>
  >({
    resolver: zodResolver(registerTeacherSchema),
    defaultValues: {
      givenName: user?.givenName ?? '',
      familyName: user?.familyName ?? '',
      city: '',
      school: '',
      discipline: '',
      teacherCode: '',
    },
  });
  const onSubmit = handleSubmit((v) => submit(v, setError as never));

  return (
    <Frame title={t('register.teacherTitle')}>
      <Grid component="form" container spacing={2} onSubmit={onSubmit} noValidate>
        <NameFields control={control} />
        <PlaceFields control={control} />
        <DisciplineField control={control} />
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormText
            control={control}
            name="teacherCode"
            label={t('fields.teacherCode')}
            required
            helperText={t('register.teacherCodeTeacherHint')}
          />
        </Grid>
        <Grid size={12}>
          <Button type="submit" variant="contained" size="large" disabled={formState.isSubmitting}>
            {t('register.submit')}
          </Button>
        </Grid>
      </Grid>
    </Frame>
  );
}
