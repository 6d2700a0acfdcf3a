import { zodResolver } from '@hookform/resolvers/zod';
import { Box, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { PHASE_TYPES, type Phase } from '../../../../../shared/schemas/exams.js';
import { FormDateTime } from '../../../components/form/FormDateTime.js';
import { FormSelect, FormText } from '../../../components/form/fields.js';
import { applyServerErrors } from '../../../components/form/server-errors.js';
import { useCreatePhase } from '../api/create-phase.js';
import type { EditionIds } from '../api/keys.js';
import { usePatchPhase } from '../api/patch-phase.js';
import {
  PHASE_FORM_FIELDS,
  type PhaseFormInput,
  phaseForm,
  phaseFormValues,
} from '../phase-form.js';
import { useReport } from '../use-report.js';
import { FormDialog } from './FormDialog.js';

type Props = {
  open: boolean;
  ids: EditionIds;
  /** The phase to edit; a new one when absent. */
  phase?: Phase;
  onClose: () => void;
};

/**
 * Create or edit a phase: name, type (online or hybrid), start and end, and the optional
 * appeal window (results stay provisional until it ends). Dates the server refuses
 * (INVALID_PHASE_DATES, OVERLAPPING_PHASE_DATES) mark both fields of the pair it names.
 */
export function PhaseFormDialog({ open, ids, phase, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const report = useReport();
  const create = useCreatePhase(ids);
  const patch = usePatchPhase({ ...ids, phaseId: phase?._id ?? '' });
  // The resolver checks and keeps the typed text; the body is parsed from it on submit.
  const { control, handleSubmit, setError, formState, reset } = useForm<PhaseFormInput>({
    resolver: zodResolver(phaseForm, undefined, { raw: true }),
    values: phaseFormValues(phase, i18n.language),
  });
  // A closed phase keeps everything but its name (the server refuses the rest).
  const isClosed = phase?.state === 'closed';

  const close = () => {
    reset();
    onClose();
  };

  const onSubmit = handleSubmit(async (typed) => {
    const values = phaseForm.parse(typed);
    try {
      if (phase) {
        await patch.mutateAsync(isClosed ? { name: values.name } : values);
        report.success('exams.phases.updated');
      } else {
        await create.mutateAsync(values);
        report.success('msg_create_phase_success');
      }
      close();
    } catch (e) {
      applyServerErrors(e, setError, PHASE_FORM_FIELDS);
      report.failure(e, phase ? 'exams.phases.updateFailed' : 'msg_create_phase_error');
    }
  });

  const dateProps = { required: true, disabled: isClosed } as const;

  return (
    <FormDialog
      open={open}
      title={phase ? t('exams.phases.edit') : t('exams.phases.add')}
      submitLabel={phase ? t('common.save') : t('exams.phases.create')}
      busy={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={close}
    >
      <FormText
        control={control}
        name="name"
        label={t('exams.phases.fields.name')}
        required
        autoFocus
      />
      <FormSelect
        control={control}
        name="type"
        label={t('exams.phases.fields.type')}
        options={PHASE_TYPES.map((p) => ({ value: p, label: t(`exams.phases.types.${p}`) }))}
        disabled={isClosed}
        required
      />
      <FormDateTime
        control={control}
        name="startDate"
        label={t('exams.phases.fields.startDate')}
        {...dateProps}
      />
      <FormDateTime
        control={control}
        name="endDate"
        label={t('exams.phases.fields.endDate')}
        {...dateProps}
      />
      <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, display: 'grid', gap: 2 }}>
        <Box component="legend" sx={{ p: 0, mb: 1 }}>
          <Typography variant="subtitle2" component="span">
            {t('exams.phases.fields.marking')}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {t('exams.phases.markingHint')}
          </Typography>
        </Box>
        {(['mediationThreshold', 'markStep', 'appealMinPoints'] as const).map((field) => (
          <FormText
            key={field}
            control={control}
            name={field}
            label={t(`exams.phases.fields.${field}`)}
            helperText={t(`exams.phases.hints.${field}`)}
            disabled={isClosed}
            required
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          />
        ))}
      </Box>
      <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, display: 'grid', gap: 2 }}>
        <Box component="legend" sx={{ p: 0, mb: 1 }}>
          <Typography variant="subtitle2" component="span">
            {t('exams.phases.fields.appeals')}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
            {t('exams.phases.appealsHint')}
          </Typography>
        </Box>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
          <FormDateTime
            control={control}
            name="appealStartDate"
            label={t('exams.phases.fields.appealStartDate')}
            {...dateProps}
            required={false}
          />
          <FormDateTime
            control={control}
            name="appealEndDate"
            label={t('exams.phases.fields.appealEndDate')}
            {...dateProps}
            required={false}
          />
        </Box>
      </Box>
    </FormDialog>
  );
}
