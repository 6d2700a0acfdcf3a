import { zodResolver } from '@hookform/resolvers/zod';
import { ListItemText, MenuItem, TextField } from '@mui/material';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { DISCIPLINES, GRADES } from '../../../../../shared/constants.js';
import { type Exam, examCreateSchema } from '../../../../../shared/schemas/exams.js';
import { FormSelect, FormText } from '../../../components/form/fields.js';
import { applyServerErrors } from '../../../components/form/server-errors.js';
import { SelectedMark } from '../../../components/pickers/SelectedMark.js';
import { useCreateExam } from '../api/create-exam.js';
import { usePatchExam } from '../api/patch-exam.js';
import { gradesLabel } from '../format.js';
import { useReport } from '../use-report.js';
import { FormDialog } from './FormDialog.js';

const { name, subject, grades, description } = examCreateSchema.shape;
const examForm = z.object({ name, subject, grades, description });
type Input = z.input<typeof examForm>;
type Output = z.output<typeof examForm>;
const FIELDS = ['name', 'subject', 'grades', 'description'];

type Props = {
  open: boolean;
  /** The competition to edit; a new one when absent. */
  exam?: Exam;
  onClose: () => void;
  onCreated?: (exam: Exam) => void;
};

/** Create or edit a competition: name, subject, grades (0–12, 99 'Absolvent'), description. */
export function ExamFormDialog({ open, exam, onClose, onCreated }: Props) {
  const { t } = useTranslation();
  const report = useReport();
  const create = useCreateExam();
  const patch = usePatchExam(exam?._id ?? '');
  const { control, handleSubmit, setError, formState, reset } = useForm<Input, unknown, Output>({
    resolver: zodResolver(examForm),
    values: {
      name: exam?.name ?? '',
      subject: exam?.subject ?? '',
      grades: exam?.grades ?? [],
      description: exam?.description ?? '',
    },
  });

  const close = () => {
    reset();
    onClose();
  };

  const onSubmit = handleSubmit(async (values) => {
    const body = { ...values, description: values.description?.trim() || null };
    try {
      if (exam) {
        await patch.mutateAsync(body);
        report.success('message_success_exam_modified');
      } else {
        const created = await create.mutateAsync(body);
        report.success('exams.messages.created');
        onCreated?.(created);
      }
      close();
    } catch (e) {
      applyServerErrors(e, setError, FIELDS);
      report.failure(e, exam ? 'message_failed_exam_modified' : 'exams.messages.createFailed');
    }
  });

  const subjects = DISCIPLINES.map((d) => ({ value: d, label: t(`disciplines.${d}`) }));
  // An older competition may carry a subject outside today's list; keep it choosable.
  if (exam && !subjects.some((s) => s.value === exam.subject)) {
    subjects.push({ value: exam.subject as (typeof DISCIPLINES)[number], label: exam.subject });
  }

  return (
    <FormDialog
      open={open}
      title={exam ? t('exams.edit') : t('exams.add')}
      submitLabel={exam ? t('common.save') : t('exams.create')}
      busy={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={close}
    >
      <FormText control={control} name="name" label={t('exams.fields.name')} required autoFocus />
      <FormSelect
        control={control}
        name="subject"
        label={t('exams.fields.subject')}
        options={subjects}
        required
      />
      <Controller
        control={control}
        name="grades"
        render={({ field, fieldState }) => (
          <TextField
            select
            required
            fullWidth
            label={t('exams.fields.grades')}
            name={field.name}
            inputRef={field.ref}
            onBlur={field.onBlur}
            value={field.value ?? []}
            onChange={(e) => {
              const chosen = e.target.value as unknown as number[];
              field.onChange([...new Set(chosen)].sort((a, b) => a - b));
            }}
            error={fieldState.error !== undefined}
            helperText={fieldState.error?.message && t(`error_${fieldState.error.message}`)}
            slotProps={{
              select: {
                multiple: true,
                renderValue: (value) => gradesLabel(value as number[], t),
              },
            }}
          >
            {GRADES.map((g) => (
              <MenuItem key={g} value={g}>
                <SelectedMark checked={(field.value ?? []).includes(g)} />
                <ListItemText primary={t(`grades.${g}`)} />
              </MenuItem>
            ))}
          </TextField>
        )}
      />
      <FormText
        control={control}
        name="description"
        label={t('exams.fields.description')}
        multiline
        minRows={3}
      />
    </FormDialog>
  );
}
