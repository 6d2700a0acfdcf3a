import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Stack,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { QuestionView } from '../../../components/statement/QuestionView.js';
import { useQuestion } from '../api/get-question.js';
import { QuestionMeta } from './QuestionMeta.js';

type Props = {
  ids: PhaseIds;
  /** The question shown; closed when null. */
  questionId: string | null;
  /** Managers see the correct answer; staff who only view do not. */
  showsCorrect: boolean;
  onClose: () => void;
};

/** A question as it will be printed, read-only. */
export function QuestionViewDialog({ ids, questionId, showsCorrect, onClose }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const question = useQuestion({ ...ids, questionId: questionId ?? '' }, questionId !== null);
  const q = question.data;
  return (
    <Dialog
      open={questionId !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth="md"
      fullWidth
      fullScreen={isPhone}
    >
      <DialogTitle id={titleId}>{t('questions.view.title')}</DialogTitle>
      <DialogContent dividers>
        {q ? (
          <Stack spacing={2}>
            <QuestionMeta question={q} />
            <QuestionView
              itemQ={q.itemQ}
              itemType={q.itemType}
              itemAnswers={q.itemAnswers}
              itemCorrectAnswers={showsCorrect ? q.itemCorrectAnswers : undefined}
            />
          </Stack>
        ) : question.error ? (
          <Alert severity="error">{t('questions.form.loadError')}</Alert>
        ) : (
          <LinearProgress aria-label={t('list.loading')} />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
