import ArrowBack from '@mui/icons-material/ArrowBack';
import Gavel from '@mui/icons-material/Gavel';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  LinearProgress,
  Paper,
  Stack,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import {
  MAX_APPEAL_REASON_LENGTH,
  type StudentResult,
  type StudentReviewItem,
} from '../../../../shared/schemas/reviews.js';
import type { AnswerItem, StudentItems } from '../../../../shared/schemas/uploads.js';
import { ApiError } from '../../api/client.js';
import { AnswerFiles } from '../../components/answer-files/AnswerFiles.js';
import { useStudentItems } from '../../components/answer-files/api/get-student-items.js';
import { ScoreSummary } from '../../components/ScoreSummary.js';
import { QuestionView } from '../../components/statement/QuestionView.js';
import { useAuth } from '../../lib/auth.js';
import { useSnackbar } from '../../lib/snackbar.js';
import { useFileAppeal, useStudentResult } from './api/student-result.js';
import { formatWhen } from './components/format.js';
import { formatMark } from './mark-form.js';
import { appealLabel } from './review-rules.js';

/** `/teste/{testId}/rezultat`: the student's score item by item, and their appeals. */
export function StudentResultPage() {
  const { t } = useTranslation();
  const { testId = '' } = useParams();
  const result = useStudentResult(testId);
  if (!result.data) {
    if (!result.error) return <LinearProgress aria-label={t('list.loading')} />;
    const code = result.error instanceof ApiError ? result.error.code : 'GENERAL_ERROR';
    return (
      <Alert
        severity={code === 'NOT_FOUND' ? 'info' : 'error'}
        action={
          <Button component={Link} to="/tests" color="inherit" size="small">
            {t('result.back')}
          </Button>
        }
      >
        {code === 'NOT_FOUND'
          ? t('result.none')
          : t(`errors.${code}`, { defaultValue: t('errors.GENERAL_ERROR') })}
      </Alert>
    );
  }
  return <ResultView testId={testId} result={result.data} />;
}

function ResultView({ testId, result }: { testId: string; result: StudentResult }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [appealing, setAppealing] = useState<StudentReviewItem | null>(null);
  const { user } = useAuth();
  const ids = {
    examId: result.examId,
    editionId: result.editionId,
    phaseId: result.phaseId,
    testId,
  };
  // A hybrid test's answers are the student's own pages, read through the uploads module.
  const own = useStudentItems(ids, result.hybrid ? (user?._id ?? '') : '');
  const pagesOf = (itemId: string) => own.data?.items.find((i) => i.itemId === itemId);
  const total = result.items.reduce((s, i) => s + Math.round(i.maxScore * 100), 0) / 100;
  const windowText = (() => {
    if (!result.appealStartDate || !result.appealEndDate) return t('result.window.none');
    const values = {
      start: formatWhen(result.appealStartDate, lang),
      end: formatWhen(result.appealEndDate, lang),
    };
    if (result.appealOpen) return t('result.window.open', values);
    return new Date(result.appealStartDate).getTime() > Date.now()
      ? t('result.window.later', values)
      : t('result.window.closed', values);
  })();
  return (
    <Stack spacing={2}>
      <Box>
        <Button component={Link} to="/tests" startIcon={<ArrowBack />} size="small" sx={{ mb: 1 }}>
          {t('result.back')}
        </Button>
        <Typography variant="h5" component="h1">
          {result.testName}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('pages.testResult')}
        </Typography>
      </Box>
      <Paper sx={{ p: 2 }} component="section" aria-label={t('result.summary')}>
        {result.score === null ? (
          <Typography variant="h5" component="p" sx={{ fontWeight: 700 }}>
            {t('result.noScore')}
          </Typography>
        ) : (
          <ScoreSummary
            score={result.score}
            totalScore={total}
            scoreState={result.scoreState}
            awaitingItems={result.items.filter((i) => i.finalScore === null).length}
            variant="h4"
            testId="result-score"
          />
        )}
        <Alert severity={result.appealOpen ? 'info' : 'warning'} sx={{ mt: 1.5 }} icon={<Gavel />}>
          {windowText}
        </Alert>
      </Paper>
      <Stack
        component="ol"
        spacing={1}
        sx={{ listStyle: 'none', p: 0, m: 0 }}
        aria-label={t('result.items')}
      >
        {result.items.map((item) => {
          const label = appealLabel(item);
          const name = t('reviews.itemN', { n: item.itemIndexInTest + 1 });
          return (
            <Paper
              component="li"
              key={item.itemId}
              aria-label={name}
              sx={{ p: 2, display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}
            >
              <Box sx={{ flex: 1, minWidth: 140 }}>
                <Typography sx={{ fontWeight: 600 }}>{name}</Typography>
                <Typography variant="h6" component="p">
                  {item.finalScore === null
                    ? t('result.waiting')
                    : t('result.itemScore', {
                        count: item.maxScore,
                        score: formatMark(item.finalScore, lang),
                        max: formatMark(item.maxScore, lang),
                      })}
                </Typography>
                {item.decidedBy && (
                  <Typography variant="body2" color="text.secondary">
                    {t(`result.decidedBy.${item.decidedBy}`)}
                  </Typography>
                )}
                {item.changes.length > 0 && <ScoreChanges item={item} />}
              </Box>
              {label && <Chip color={label.color} label={t(label.key)} />}
              {item.canChallenge && (
                <Button
                  variant="outlined"
                  startIcon={<Gavel />}
                  onClick={() => setAppealing(item)}
                  aria-label={t('result.appealItem', { name })}
                >
                  {t('result.appeal')}
                </Button>
              )}
              <OwnAnswer
                ids={ids}
                name={name}
                item={item}
                pages={pagesOf(item.itemId)}
                limits={own.data?.limits}
                hybrid={result.hybrid}
              />
            </Paper>
          );
        })}
      </Stack>
      <AppealDialog testId={testId} item={appealing} onClose={() => setAppealing(null)} />
    </Stack>
  );
}

/**
 * Beside an item's points: the question as the student had it and their own answer: the pages
 * they uploaded (to look at or download, no longer to change) or what they answered online.
 */
function OwnAnswer({
  ids,
  name,
  item,
  pages,
  limits,
  hybrid,
}: {
  ids: { examId: string; editionId: string; phaseId: string; testId: string };
  name: string;
  item: StudentReviewItem;
  /** A hybrid test's item with the student's uploaded pages (once read). */
  pages: AnswerItem | undefined;
  limits: StudentItems['limits'] | undefined;
  /** A hybrid test: an open question's answer was written on paper (online, it was typed). */
  hybrid: boolean;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  const submitted = item.ownAnswer;
  const letters = (xs: number[]) => xs.map((i) => String.fromCharCode(65 + i)).join(', ');
  return (
    <Box
      component="section"
      aria-labelledby={headingId}
      sx={{ flexBasis: '100%', borderTop: 1, borderColor: 'divider', pt: 1.5, minWidth: 0 }}
    >
      <Typography id={headingId} variant="subtitle2" component="h2" sx={{ mb: 1 }}>
        {t('result.question', { name })}
      </Typography>
      <QuestionView
        itemQ={item.statement}
        itemType={item.itemType}
        itemAnswers={item.itemAnswers}
        paperNote={hybrid}
      />
      <Typography variant="subtitle2" component="h3" sx={{ mt: 2, mb: 0.5 }}>
        {t('result.yourAnswer')}
      </Typography>
      {pages && limits && (pages.answer?.answerFiles.length ?? 0) > 0 ? (
        <AnswerFiles
          ids={ids}
          itemId={item.itemId}
          itemLabel={name}
          answer={pages.answer}
          canEdit={false}
          limits={limits}
        />
      ) : submitted !== null &&
        (typeof submitted === 'string' ? submitted.trim() : submitted.length) ? (
        <Typography sx={{ whiteSpace: 'pre-wrap' }}>
          {Array.isArray(submitted) ? letters(submitted) : submitted}
        </Typography>
      ) : (
        <Typography color="text.secondary">{t('result.noAnswer')}</Typography>
      )}
    </Box>
  );
}

/** Each change of an item's points: from what, to what, by how much, why (never who), when. */
function ScoreChanges({ item }: { item: StudentReviewItem }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const headingId = useId();
  return (
    <Box sx={{ mt: 1 }}>
      <Typography id={headingId} variant="subtitle2" component="p">
        {t('result.changes')}
      </Typography>
      <Box component="ul" aria-labelledby={headingId} sx={{ m: 0, pl: 2.5 }}>
        {item.changes.map((c) => {
          const diff = Math.round((c.after - c.before) * 100) / 100;
          const sign = diff > 0 ? '+' : diff < 0 ? '−' : '±';
          return (
            <Typography component="li" variant="body2" key={`${c.at}-${c.cause}`}>
              {t('result.change', {
                before: formatMark(c.before, lang),
                after: formatMark(c.after, lang),
                diff: `${sign}${formatMark(Math.abs(diff), lang)}`,
                cause: t(`result.cause.${c.cause}`),
                when: formatWhen(c.at, lang),
              })}
            </Typography>
          );
        })}
      </Box>
    </Box>
  );
}

function AppealDialog({
  testId,
  item,
  onClose,
}: {
  testId: string;
  item: StudentReviewItem | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const { notify } = useSnackbar();
  const titleId = useId();
  const appeal = useFileAppeal(testId);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const name = item ? t('reviews.itemN', { n: item.itemIndexInTest + 1 }) : '';

  const close = () => {
    setReason('');
    setError(null);
    onClose();
  };

  const handleSubmit = async () => {
    if (!item) return;
    const text = reason.trim();
    if (!text) return setError('error_required');
    if (text.length < 3) return setError('error_too_short');
    if (text.length > MAX_APPEAL_REASON_LENGTH) return setError('error_too_long');
    setError(null);
    try {
      await appeal.mutateAsync({ itemId: item.itemId, reason: text });
      notify('msg_challenge_item_success', 'success');
      close();
    } catch (e) {
      const field = e instanceof ApiError ? e.fieldErrors.reason?.[0] : undefined;
      if (field) return setError(`error_${field}`);
      notify(
        e instanceof ApiError && e.code === 'APPEAL_NOT_ALLOWED'
          ? 'errors.APPEAL_NOT_ALLOWED'
          : 'msg_challenge_item_error',
        'error',
      );
    }
  };

  return (
    <Dialog
      open={item !== null}
      onClose={close}
      aria-labelledby={titleId}
      fullScreen={isPhone}
      fullWidth
      maxWidth="sm"
    >
      <DialogTitle id={titleId}>{t('result.appealTitle', { name })}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{t('result.appealHint')}</DialogContentText>
        <TextField
          label={t('result.reason')}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          multiline
          minRows={4}
          fullWidth
          autoFocus
          error={error !== null}
          helperText={error ? t(error) : t('result.reasonHint')}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{t('common.cancel')}</Button>
        <Button variant="contained" disabled={appeal.isPending} onClick={() => void handleSubmit()}>
          {t('result.send')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
