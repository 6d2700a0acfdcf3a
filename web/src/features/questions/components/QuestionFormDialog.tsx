import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Grid,
  LinearProgress,
  Paper,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useEffect, useId, useRef } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { Exam } from '../../../../../shared/schemas/exams.js';
import type { ItemType, Question } from '../../../../../shared/schemas/questions.js';
import { ApiError } from '../../../api/client.js';
import { FormSelect, FormText } from '../../../components/form/fields.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { QuestionView } from '../../../components/statement/QuestionView.js';
import { useCreateQuestion } from '../api/create-question.js';
import { useQuestion } from '../api/get-question.js';
import { useUpdateQuestion } from '../api/update-question.js';
import { difficultyOptions, disciplineOptions, gradeOptions, typeOptions } from '../format.js';
import {
  emptyQuestion,
  formFieldOf,
  formToBody,
  type QuestionFormValues,
  questionFormResolver,
  questionToForm,
} from '../question-form.js';
import { useQuestionReport } from '../use-question-report.js';
import { AnswerOptions } from './AnswerOptions.js';
import { StatementEditor } from './StatementEditor.js';

type Props = {
  open: boolean;
  ids: PhaseIds;
  exam: Exam;
  /** The question to edit; a new one when null. */
  questionId: string | null;
  onClose: () => void;
};

const hasOptions = (type: ItemType) => type === 'single' || type === 'multiple';

/**
 * Add or edit a question: statement (Markdown, `$…$` formulas, images), type, options with
 * their correct marks or the numeric answer, and the bank fields; a live preview beside it
 * shows the question as it will be printed.
 */
export function QuestionFormDialog({ open, ids, exam, questionId, onClose }: Props) {
  const { t } = useTranslation();
  const titleId = useId();
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const existing = useQuestion({ ...ids, questionId: questionId ?? '' }, open && !!questionId);
  const isEdit = questionId !== null;
  return (
    <Dialog
      open={open}
      onClose={(_, reason) => reason !== 'backdropClick' && onClose()}
      aria-labelledby={titleId}
      maxWidth="lg"
      fullWidth
      fullScreen={isPhone}
    >
      <DialogTitle id={titleId}>
        {isEdit ? t('questions.form.editTitle') : t('questions.form.addTitle')}
      </DialogTitle>
      {isEdit && !existing.data ? (
        <>
          <DialogContent>
            {existing.error ? (
              <Alert severity="error">{t('questions.form.loadError')}</Alert>
            ) : (
              <LinearProgress aria-label={t('list.loading')} />
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('common.close')}</Button>
          </DialogActions>
        </>
      ) : (
        <QuestionForm
          // A fresh form for each question opened.
          key={existing.data?._id ?? 'new'}
          ids={ids}
          exam={exam}
          question={isEdit ? existing.data : undefined}
          onClose={onClose}
        />
      )}
    </Dialog>
  );
}

type FormProps = {
  ids: PhaseIds;
  exam: Exam;
  question: Question | undefined;
  onClose: () => void;
};

function QuestionForm({ ids, exam, question, onClose }: FormProps) {
  const { t } = useTranslation();
  const report = useQuestionReport();
  const create = useCreateQuestion(ids);
  const update = useUpdateQuestion(ids);
  const { control, handleSubmit, setError, setValue, getValues, formState } =
    useForm<QuestionFormValues>({
      resolver: questionFormResolver,
      defaultValues: question
        ? questionToForm(question)
        : emptyQuestion(exam.subject, exam.grades.length === 1 ? (exam.grades[0] ?? '') : ''),
    });
  const values = useWatch({ control }) as QuestionFormValues;
  const busy = formState.isSubmitting;

  // A type with options shows them ready to fill in, and a single choice keeps one mark.
  const itemType = values.itemType;
  const shownType = useRef(itemType);
  useEffect(() => {
    if (shownType.current === itemType) return;
    shownType.current = itemType;
    if (!hasOptions(itemType)) return;
    if (getValues('itemAnswers').length < 2) {
      setValue('itemAnswers', [{ text: '' }, { text: '' }, { text: '' }, { text: '' }]);
    }
    if (itemType === 'single') {
      setValue('itemCorrectAnswers', getValues('itemCorrectAnswers').slice(0, 1));
    }
  }, [itemType, getValues, setValue]);

  const onSubmit = handleSubmit(async (v) => {
    const body = formToBody(v);
    try {
      if (question) {
        await update.mutateAsync({ questionId: question._id, body });
        report.success('questions.form.updated');
      } else {
        await create.mutateAsync(body);
        report.success('msg_question_add_success');
      }
      onClose();
    } catch (e) {
      let placed = false;
      if (e instanceof ApiError) {
        for (const [field, codes] of Object.entries(e.fieldErrors)) {
          const target = formFieldOf(v, field);
          if (!target || !codes[0]) continue;
          setError(target, { type: 'server', message: codes[0] }, { shouldFocus: !placed });
          placed = true;
        }
      }
      report.failure(
        e,
        question ? 'questions.form.updateError' : 'msg_question_add_error',
        placed || !question ? 'warning' : 'error',
      );
    }
  });

  const preview = (
    <Paper
      variant="outlined"
      component="section"
      aria-label={t('questions.form.preview')}
      sx={{ p: 2, position: { md: 'sticky' }, top: { md: 0 } }}
    >
      <Typography variant="overline" color="text.secondary" component="h3">
        {t('questions.form.preview')}
      </Typography>
      <QuestionView
        itemQ={values.itemQ ?? ''}
        itemType={values.itemType}
        itemAnswers={(values.itemAnswers ?? []).map((a) => a?.text ?? '')}
        itemCorrectAnswers={
          values.itemType === 'numeric'
            ? values.numericAnswer
            : values.itemType === 'open'
              ? null
              : (values.itemCorrectAnswers ?? [])
        }
        emptyText={t('questions.form.previewEmpty')}
      />
    </Paper>
  );

  return (
    <form onSubmit={onSubmit} noValidate style={{ display: 'contents' }}>
      <DialogContent dividers>
        <Grid container spacing={3}>
          <Grid size={{ xs: 12, md: 7 }}>
            <Box sx={{ display: 'grid', gap: 2 }}>
              <Box
                sx={{
                  display: 'grid',
                  gap: 2,
                  gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', lg: '1fr 1fr 1fr' },
                }}
              >
                <FormSelect
                  control={control}
                  name="itemDiscipline"
                  label={t('questions.fields.itemDiscipline')}
                  options={disciplineOptions(t, exam.subject, question?.itemDiscipline)}
                  size="small"
                  required
                />
                <FormSelect
                  control={control}
                  name="itemGrade"
                  label={t('questions.fields.itemGrade')}
                  options={gradeOptions(t, exam.grades, question?.itemGrade)}
                  numeric
                  size="small"
                  required
                />
                <FormSelect
                  control={control}
                  name="difficulty"
                  label={t('questions.fields.difficulty')}
                  options={difficultyOptions(t)}
                  size="small"
                  required
                />
                <FormText
                  control={control}
                  name="itemCategory"
                  label={t('questions.fields.itemCategory')}
                  placeholder={t('questions.form.categoryPlaceholder')}
                  size="small"
                  slotProps={{ htmlInput: { maxLength: 100 } }}
                />
                <FormSelect
                  control={control}
                  name="itemType"
                  label={t('questions.fields.itemType')}
                  options={typeOptions(t)}
                  size="small"
                  required
                />
              </Box>
              <StatementEditor control={control} disabled={busy} />
              {hasOptions(values.itemType) && <AnswerOptions control={control} disabled={busy} />}
              {values.itemType === 'numeric' && (
                <FormText
                  control={control}
                  name="numericAnswer"
                  label={t('questions.form.numericAnswer')}
                  helperText={t('questions.form.numericHint')}
                  required
                  size="small"
                  slotProps={{ htmlInput: { inputMode: 'decimal', maxLength: 50 } }}
                />
              )}
              {values.itemType === 'open' && (
                <Typography variant="body2" color="text.secondary">
                  {t('questions.form.openHint')}
                </Typography>
              )}
            </Box>
          </Grid>
          <Grid size={{ xs: 12, md: 5 }}>{preview}</Grid>
        </Grid>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" variant="contained" disabled={busy}>
          {question ? t('common.save') : t('questions.form.create')}
        </Button>
      </DialogActions>
    </form>
  );
}
