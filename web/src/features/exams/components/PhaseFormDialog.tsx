import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { PHASE_TYPES, type Phase, phaseCreateSchema } from '../../../../../shared/schemas/exams.js';
import { FormSelect, FormText } from '../../../components/form/fields.js';
import { applyServerErrors } from '../../../components/form/server-errors.js';
import { useCreatePhase } from '../api/create-phase.js';
import type { EditionIds } from '../api/keys.js';
import { usePatchPhase } from '../api/patch-phase.js';
import { fromLocalInput, toLocalInput } from '../format.js';
import { useReport } from '../use-report.js';
import { FormDialog } from './FormDialog.js';

const { name, type, startDate, endDate } = phaseCreateSchema.shape;
/** A `datetime-local` value, required, turned into the instant the route checks. */
const localInstant = (instant: typeof startDate) =>
  z.string({ error: 'required' }).min(1, 'required').transform(fromLocalInput).pipe(instant);
const phaseForm = z.object({
  name,
  type,
  startDate: localInstant(startDate),
  endDate: localInstant(endDate),
});
type Input = z.input<typeof phaseForm>;
type Output = z.output<typeof phaseForm>;
const FIELDS = ['name', 'type', 'startDate', 'endDate'];

type Props = {
  open: boolean;
  ids: EditionIds;
  /** The phase to edit; a new one when absent. */
  phase?: Phase;
  onClose: () => void;
};

/**
 * Create or edit a phase: name, type (online or hybrid), start and end. Dates the server
 * refuses (INVALID_PHASE_DATES, OVERLAPPING_PHASE_DATES) mark both date fields.
 */
export function PhaseFormDialog({ open, ids, phase, onClose }: Props) {
  const { t } = useTranslation();
  const report = useReport();
  const create = useCreatePhase(ids);
  const patch = usePatchPhase({ ...ids, phaseId: phase?._id ?? '' });
  const { control, handleSubmit, setError, formState, reset } = useForm<Input, unknown, Output>({
    resolver: zodResolver(phaseForm),
    values: {
      name: phase?.name ?? '',
      type: phase?.type ?? 'online',
      startDate: toLocalInput(phase?.startDate),
      endDate: toLocalInput(phase?.endDate),
    },
  });
  // A closed phase keeps everything but its name (the server refuses the rest).
  const isClosed = phase?.state === 'closed';

  const close = () => {
    reset();
    onClose();
  };

  const onSubmit = handleSubmit(async (values) => {
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
      applyServerErrors(e, setError, FIELDS);
      report.failure(e, phase ? 'exams.phases.updateFailed' : 'msg_create_phase_error');
    }
  });

  const dateProps = {
    type: 'datetime-local',
    required: true,
    disabled: isClosed,
    slotProps: { inputLabel: { shrink: true } },
  } as const;

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
      <FormText
        control={control}
        name="startDate"
        label={t('exams.phases.fields.startDate')}
        {...dateProps}
      />
      <FormText
        control={control}
        name="endDate"
        label={t('exams.phases.fields.endDate')}
        {...dateProps}
      />
    </FormDialog>
  );
}
