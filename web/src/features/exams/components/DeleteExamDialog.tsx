import { Typography } from '@mui/material';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client.js';
import { ConfirmDialog } from '../../../components/list/ConfirmDialog.js';
import { useDeleteExam } from '../api/delete-exam.js';
import { useReport } from '../use-report.js';

type Props = {
  /** The competition to delete; the dialog is open while it is set. */
  exam: { _id: string; name?: string } | null;
  onClose: () => void;
  onDeleted?: () => void;
};

/**
 * Asks before deleting a competition. A competition that still has editions is refused by the
 * server (EXAM_HAS_EDITIONS); the dialog then says why and what to do instead.
 */
export function DeleteExamDialog({ exam, onClose, onDeleted }: Props) {
  const { t } = useTranslation();
  const report = useReport();
  const remove = useDeleteExam();
  const { reset } = remove;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new competition starts clean.
  useEffect(() => reset(), [exam?._id, reset]);

  const hasEditions = remove.error instanceof ApiError && remove.error.code === 'EXAM_HAS_EDITIONS';
  const handleConfirm = () => {
    if (!exam) return;
    remove.mutate(exam._id, {
      onSuccess: () => {
        report.success('exams.delete.done', { name: exam.name ?? '' });
        onClose();
        onDeleted?.();
      },
      onError: (e) => {
        if (!(e instanceof ApiError && e.code === 'EXAM_HAS_EDITIONS'))
          report.failure(e, 'exams.delete.failed');
      },
    });
  };

  return (
    <ConfirmDialog
      open={exam !== null}
      title={t('exams.delete.title')}
      message={<Typography>{t('exams.delete.question', { name: exam?.name ?? '' })}</Typography>}
      confirmLabel={t('exams.delete.confirm')}
      destructive
      busy={remove.isPending}
      error={
        hasEditions ? (
          <>
            <strong>{t('errors.EXAM_HAS_EDITIONS')}</strong> {t('exams.delete.hasEditions')}
          </>
        ) : undefined
      }
      onConfirm={handleConfirm}
      onClose={onClose}
    />
  );
}
