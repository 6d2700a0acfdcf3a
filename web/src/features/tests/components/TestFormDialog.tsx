import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  ListItemText,
  MenuItem,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DISCIPLINES } from '../../../../../shared/constants.js';
import type { Exam, Phase } from '../../../../../shared/schemas/exams.js';
import type { TestShortage } from '../../../../../shared/schemas/tests.js';
import { ApiError } from '../../../api/client.js';
import { FormDateTime } from '../../../components/form/FormDateTime.js';
import { FormSelect, FormText } from '../../../components/form/fields.js';
import { applyServerErrors } from '../../../components/form/server-errors.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { SelectedMark } from '../../../components/pickers/SelectedMark.js';
import { useCreateTest } from '../api/create-test.js';
import { ceilToMinute, formatDateTime, toLocalInput } from '../format.js';
import { emptyTest, TEST_FORM_FIELDS, type TestFormValues, testForm } from '../test-form.js';
import { useReport } from '../use-report.js';

type Props = {
  open: boolean;
  ids: PhaseIds;
  exam: Exam;
  phase: Phase;
  /** Grades that already have a test in this phase (marked in the grade list). */
  takenGrades: readonly number[];
  onClose: () => void;
};

const isShortage = (d: unknown): d is TestShortage[] =>
  Array.isArray(d) && d.every((s) => s && typeof s === 'object' && 'difficulty' in s);

/**
 * Generates a test from the phase's bank: name, grades (of the competition), subject, window
 * (within the phase), duration, total score and how many easy, medium and hard questions.
 * The server's refusals land on their fields (a grade that has a test, a date outside the
 * phase); a bank too small for the counts is explained under the form.
 */
export function TestFormDialog({ open, ids, exam, phase, takenGrades, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const report = useReport();
  const titleId = useId();
  const create = useCreateTest(ids);
  const [shortage, setShortage] = useState<TestShortage[] | null>(null);
  // The resolver checks and keeps the typed text; the body is parsed from it on submit.
  const { control, handleSubmit, setError, formState, reset } = useForm<TestFormValues>({
    resolver: zodResolver(testForm, undefined, { raw: true }),
    defaultValues: emptyTest(exam, phase),
  });

  const close = () => {
    reset(emptyTest(exam, phase));
    setShortage(null);
    create.reset();
    onClose();
  };

  const onSubmit = handleSubmit(async (values) => {
    setShortage(null);
    const body = testForm.parse(values);
    try {
      await create.mutateAsync(body);
      report.success('msg_success_test_created');
      close();
    } catch (e) {
      if (applyServerErrors(e, setError, TEST_FORM_FIELDS)) {
        report.warning('errors.generic_warning');
        return;
      }
      if (
        e instanceof ApiError &&
        e.code === 'INSUFFICIENT_TEST_ITEMS_FOR_CRITERIA' &&
        isShortage(e.details)
      ) {
        setShortage(e.details);
      }
      report.failure(e, 'tests.createFailed');
    }
  });

  const subjects: { value: string; label: string }[] = DISCIPLINES.map((d) => ({
    value: d,
    label: t(`disciplines.${d}`),
  }));
  if (!subjects.some((s) => s.value === exam.subject)) {
    subjects.push({ value: exam.subject, label: exam.subject });
  }
  // The calendar stays within the phase; the server checks it anyway.
  const dateProps = {
    required: true,
    min: toLocalInput(ceilToMinute(phase.startDate)),
    max: toLocalInput(phase.endDate),
  } as const;
  const numberProps = (min: number) =>
    ({
      type: 'number',
      required: true,
      slotProps: { htmlInput: { min, inputMode: 'numeric' } },
    }) as const;
  const busy = formState.isSubmitting;

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : close}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
    >
      <form onSubmit={onSubmit} noValidate>
        <DialogTitle id={titleId}>{t('tests.add')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <FormText
              control={control}
              name="name"
              label={t('tests.fields.name')}
              required
              autoFocus
            />
            <Controller
              control={control}
              name="grades"
              render={({ field, fieldState }) => (
                <TextField
                  select
                  required
                  fullWidth
                  label={t('tests.fields.grades')}
                  name={field.name}
                  inputRef={field.ref}
                  onBlur={field.onBlur}
                  value={field.value ?? []}
                  onChange={(e) => {
                    const chosen = e.target.value as unknown as number[];
                    field.onChange([...new Set(chosen)].sort((a, b) => a - b));
                  }}
                  error={fieldState.error !== undefined}
                  helperText={
                    fieldState.error?.message
                      ? t(`error_${fieldState.error.message}`)
                      : t('tests.fields.gradesHelp')
                  }
                  slotProps={{
                    select: {
                      multiple: true,
                      renderValue: (value) =>
                        (value as number[]).map((g) => t(`grades.${g}`)).join(', '),
                    },
                  }}
                >
                  {exam.grades.map((g) => (
                    <MenuItem key={g} value={g}>
                      <SelectedMark checked={(field.value ?? []).includes(g)} />
                      <ListItemText
                        primary={t(`grades.${g}`)}
                        secondary={takenGrades.includes(g) ? t('tests.gradeHasTest') : undefined}
                      />
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <FormSelect
              control={control}
              name="subject"
              label={t('tests.fields.subject')}
              options={subjects}
              required
            />
            <Box
              sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}
            >
              <FormDateTime
                control={control}
                name="startDate"
                label={t('tests.fields.startDate')}
                {...dateProps}
              />
              <FormDateTime
                control={control}
                name="endDate"
                label={t('tests.fields.endDate')}
                {...dateProps}
              />
              <FormText
                control={control}
                name="duration"
                label={t('tests.fields.duration')}
                {...numberProps(1)}
              />
              <FormText
                control={control}
                name="totalScore"
                label={t('tests.fields.totalScore')}
                {...numberProps(1)}
              />
            </Box>
            <Typography variant="subtitle2" component="p">
              {t('tests.fields.counts')}
            </Typography>
            <Box
              sx={{
                display: 'grid',
                gap: 2,
                gridTemplateColumns: 'repeat(3, 1fr)',
                mt: '8px !important',
              }}
            >
              <FormText
                control={control}
                name="easyCount"
                label={t('tests.fields.easyCount')}
                {...numberProps(0)}
              />
              <FormText
                control={control}
                name="mediumCount"
                label={t('tests.fields.mediumCount')}
                {...numberProps(0)}
              />
              <FormText
                control={control}
                name="hardCount"
                label={t('tests.fields.hardCount')}
                {...numberProps(0)}
              />
            </Box>
            <Typography variant="caption" color="text.secondary" sx={{ mt: '4px !important' }}>
              {t('tests.fields.countsByCategory')}
            </Typography>
            <Controller
              control={control}
              name="weightByDifficulty"
              render={({ field }) => (
                <Box>
                  <FormControlLabel
                    control={
                      <Switch
                        name={field.name}
                        inputRef={field.ref}
                        checked={field.value ?? false}
                        onBlur={field.onBlur}
                        onChange={(e) => field.onChange(e.target.checked)}
                      />
                    }
                    label={t('tests.fields.weightByDifficulty')}
                  />
                  <Typography variant="caption" color="text.secondary" component="p">
                    {t(
                      field.value
                        ? 'tests.fields.weightByDifficultyOn'
                        : 'tests.fields.weightByDifficultyOff',
                    )}
                  </Typography>
                </Box>
              )}
            />
            <Typography variant="caption" color="text.secondary">
              {t('tests.windowHint', {
                start: formatDateTime(phase.startDate, i18n.language),
                end: formatDateTime(phase.endDate, i18n.language),
              })}
            </Typography>
            {shortage && (
              <Alert severity="warning">
                {t('tests.shortage')}
                <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                  {shortage.map((s) => (
                    <li key={s.difficulty}>
                      {t('tests.shortageLine', {
                        difficulty: t(`tests.difficulty.${s.difficulty}`),
                        requested: s.requested,
                        available: s.available,
                      })}
                    </li>
                  ))}
                </Box>
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={close} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {t('tests.create')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
