import { zodResolver } from '@hookform/resolvers/zod';
import { type Control, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  EDITION_STATES,
  type Edition,
  type EditionState,
  editionPatchSchema,
} from '../../../../../shared/schemas/exams.js';
import { FormSelect, FormText } from '../../../components/form/fields.js';
import { applyServerErrors } from '../../../components/form/server-errors.js';
import { useCreateEdition } from '../api/create-edition.js';
import { usePatchEdition } from '../api/patch-edition.js';
import { useReport } from '../use-report.js';
import { FormDialog } from './FormDialog.js';

const shape = editionPatchSchema.shape;
const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);
// The inputs hold text; the route's own field rules check what they become.
const editionForm = z.object({
  name: shape.name.unwrap(),
  year: z.preprocess((v) => (blankToNull(v) === null ? null : Number(v)), shape.year.unwrap()),
  termsUrl: z.preprocess(
    (v) => (typeof v === 'string' ? blankToNull(v.trim()) : v),
    shape.termsUrl.unwrap(),
  ),
  state: shape.state.unwrap(),
});
type Values = { name: string; year: string; termsUrl: string; state: EditionState };
type Output = z.output<typeof editionForm>;
const FIELDS = ['name', 'year', 'termsUrl', 'state'];

type Props = {
  open: boolean;
  examId: string;
  /** The edition to edit; a new one when absent. */
  edition?: Edition;
  onClose: () => void;
};

/** Create or edit an edition: name, year, terms and conditions link (and state when editing). */
export function EditionFormDialog({ open, examId, edition, onClose }: Props) {
  const { t } = useTranslation();
  const report = useReport();
  const create = useCreateEdition(examId);
  const patch = usePatchEdition({ examId, editionId: edition?._id ?? '' });
  const { control, handleSubmit, setError, formState, reset } = useForm<Values, unknown, Output>({
    resolver: zodResolver(editionForm) as unknown as Resolver<Values, unknown, Output>,
    values: {
      name: edition?.name ?? '',
      year: edition?.year === null || edition?.year === undefined ? '' : String(edition.year),
      termsUrl: edition?.termsUrl ?? '',
      state: edition?.state ?? 'active',
    },
  });

  // The shared fields only read and write the text inputs, never the parsed output.
  const fields = control as unknown as Control<Values>;

  const close = () => {
    reset();
    onClose();
  };

  const onSubmit = handleSubmit(async (values) => {
    try {
      if (edition) {
        await patch.mutateAsync(values);
        report.success('update_msg_edit_edition_success');
      } else {
        const { state: _state, ...rest } = values;
        await create.mutateAsync(rest);
        report.success('exams.editions.created');
      }
      close();
    } catch (e) {
      applyServerErrors(e, setError, FIELDS);
      report.failure(e, edition ? 'update_msg_edit_edition_error' : 'exams.editions.createFailed');
    }
  });

  return (
    <FormDialog
      open={open}
      title={edition ? t('exams.editions.edit') : t('exams.editions.add')}
      submitLabel={edition ? t('common.save') : t('exams.editions.create')}
      busy={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={close}
    >
      <FormText
        control={fields}
        name="name"
        label={t('exams.editions.fields.name')}
        required
        autoFocus
      />
      <FormText
        control={fields}
        name="year"
        label={t('exams.editions.fields.year')}
        type="number"
        slotProps={{ htmlInput: { min: 2000, max: 2100, step: 1 } }}
      />
      <FormText
        control={fields}
        name="termsUrl"
        label={t('exams.editions.fields.termsUrl')}
        type="url"
        placeholder="https://"
      />
      {edition && (
        <FormSelect
          control={fields}
          name="state"
          label={t('exams.editions.fields.state')}
          options={EDITION_STATES.map((s) => ({
            value: s,
            label: t(`exams.editions.states.${s}`),
          }))}
        />
      )}
    </FormDialog>
  );
}
