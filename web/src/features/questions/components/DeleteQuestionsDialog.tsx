import { Box, DialogContentText, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { QuestionListItem } from '../../../../../shared/schemas/questions.js';
import { ConfirmDialog } from '../../../components/list/ConfirmDialog.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { useDeleteQuestion } from '../api/delete-question.js';
import { useDeleteQuestions } from '../api/delete-questions.js';
import { plainExcerpt } from '../format.js';
import { failureKey, useQuestionReport } from '../use-question-report.js';

type Props = {
  ids: PhaseIds;
  /** The questions to delete (a snapshot taken when asked); closed when null. */
  questions: QuestionListItem[] | null;
  /** One question from its row (DELETE …/items/{id}) rather than the selection. */
  isSingle?: boolean;
  /** A deletion failed, in part or whole (SPEC.md §4: the list goes back to page 0). */
  onFailed: () => void;
  /** Questions were deleted (the selection is gone). */
  onDeleted: () => void;
  onClose: () => void;
};

/**
 * The question before deleting questions. A bulk delete answers which ids were refused
 * (questions drawn into a test are never deleted): those stay listed in the dialog.
 */
export function DeleteQuestionsDialog(props: Props) {
  const { t } = useTranslation();
  const report = useQuestionReport();
  const bulk = useDeleteQuestions(props.ids);
  const one = useDeleteQuestion(props.ids);
  const [refused, setRefused] = useState<QuestionListItem[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const questions = props.questions ?? [];
  const busy = bulk.isPending || one.isPending;
  const excerpt = (q: QuestionListItem) => plainExcerpt(q.itemQ ?? '', t('questions.image'));

  const close = () => {
    setRefused(null);
    setProblem(null);
    props.onClose();
  };

  const handleConfirm = async () => {
    try {
      if (props.isSingle) {
        const [q] = questions;
        if (!q) return;
        await one.mutateAsync(q._id);
        report.success('questions.deletedOne');
        props.onDeleted();
        close();
        return;
      }
      const { ids: failed } = await bulk.mutateAsync(questions.map((q) => q._id));
      if (failed.length === 0) {
        report.success('msg_question_delete_success');
        props.onDeleted();
        close();
        return;
      }
      report.notify('msg_question_bulk_delete_error', 'warning');
      setRefused(questions.filter((q) => failed.includes(q._id)));
      if (failed.length < questions.length) props.onDeleted();
      props.onFailed();
    } catch (e) {
      report.failure(e, 'msg_question_delete_error');
      setProblem(t(failureKey(e, 'msg_question_delete_error')));
      props.onFailed();
    }
  };

  const deletedCount = refused ? questions.length - refused.length : 0;
  const error = refused ? (
    <Box>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {deletedCount > 0 && `${t('questions.delete.deleted', { count: deletedCount })} `}
        {t('questions.delete.refused', { count: refused.length })}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 2.5 }} aria-label={t('questions.delete.refusedList')}>
        {refused.map((q) => (
          <li key={q._id}>{excerpt(q)}</li>
        ))}
      </Box>
    </Box>
  ) : (
    problem
  );

  return (
    <ConfirmDialog
      open={props.questions !== null}
      title={
        props.isSingle
          ? t('questions.delete.titleOne')
          : t('questions.delete.title', { count: questions.length })
      }
      message={
        <>
          <DialogContentText>
            {props.isSingle
              ? t('questions.delete.messageOne')
              : t('questions.delete.message', { count: questions.length })}
          </DialogContentText>
          {props.isSingle && questions[0] && (
            <Typography sx={{ mt: 1, fontStyle: 'italic' }}>{excerpt(questions[0])}</Typography>
          )}
        </>
      }
      confirmLabel={t('questions.actions.delete')}
      destructive
      busy={busy}
      error={error ?? undefined}
      onConfirm={() => void handleConfirm()}
      onClose={close}
    />
  );
}
