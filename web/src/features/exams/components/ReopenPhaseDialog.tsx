import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Typography } from '@mui/material';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { Phase } from '../../../../../shared/schemas/exams.js';
import {
  MAX_REOPEN_REASON_LENGTH,
  type PhaseReopenInput,
  phaseReopenSchema,
} from '../../../../../shared/schemas/phase-reopen.js';
import { ApiError } from '../../../api/client.js';
import { FormText } from '../../../components/form/fields.js';
import { applyServerErrors } from '../../../components/form/server-errors.js';
import type { PhaseIds } from '../api/keys.js';
import { useReopenPhase } from '../api/reopen-phase.js';
import { useReport } from '../use-report.js';
import { FormDialog } from './FormDialog.js';

type Props = { open: boolean; ids: PhaseIds; phase: Phase; onClose: () => void };

/**
 * Reopening a closed phase for a correction: what it means (scores and decisions change
 * again until it closes again, which applies the rules again and lists who changes) and the
 * written reason the audit keeps. A refusal (a later phase started, students already moved
 * on) stays in the dialog.
 */
export function ReopenPhaseDialog({ open, ids, phase, onClose }: Props) {
  const { t } = useTranslation();
  const report = useReport();
  const reopen = useReopenPhase(ids);
  const { control, handleSubmit, setError, formState, reset } = useForm<PhaseReopenInput>({
    resolver: zodResolver(phaseReopenSchema),
    defaultValues: { reason: '' },
  });

  const close = () => {
    reset();
    reopen.reset();
    onClose();
  };

  const onSubmit = handleSubmit(async (values) => {
    try {
      await reopen.mutateAsync(values);
      report.success('phaseReopen.done', { name: phase.name });
      close();
    } catch (e) {
      applyServerErrors(e, setError, ['reason']);
    }
  });

  const refusal = reopen.error instanceof ApiError ? reopen.error : undefined;
  return (
    <FormDialog
      open={open}
      title={t('phaseReopen.title', { name: phase.name })}
      submitLabel={t('phaseReopen.confirm')}
      busy={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={close}
    >
      <Typography variant="body2">{t('phaseReopen.consequences')}</Typography>
      <Typography variant="body2">{t('phaseReopen.closeAgain')}</Typography>
      <Typography variant="body2" color="text.secondary">
        {t('phaseReopen.audited')}
      </Typography>
      <FormText
        control={control}
        name="reason"
        label={t('phaseReopen.reason')}
        helperText={t('phaseReopen.reasonHint', { max: MAX_REOPEN_REASON_LENGTH })}
        multiline
        minRows={3}
        required
        autoFocus
      />
      {refusal && refusal.code !== 'VALIDATION_FAILED' && (
        <Alert severity="error">
          {t(`errors.${refusal.code}`, { defaultValue: t('phaseReopen.failed') })}
        </Alert>
      )}
    </FormDialog>
  );
}
