import Assignment from '@mui/icons-material/Assignment';
import MailOutline from '@mui/icons-material/MailOutline';
import SwapHoriz from '@mui/icons-material/SwapHoriz';
import {
  Alert,
  Box,
  Button,
  LinearProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import {
  REMINDER_INTERVAL_HOURS,
  type ReminderResult,
  type ReviewProgress,
} from '../../../../shared/schemas/reviews.js';
import { type PhaseIds, usePhaseContext } from '../../components/phase/get-phase-context.js';
import { PhaseCrumbs } from '../../components/phase/PhaseCrumbs.js';
import { PhasePageState } from '../../components/phase/PhasePageState.js';
import { useSnackbar } from '../../lib/snackbar.js';
import { usePhaseTests, useProgress, useSendReminders } from './api/progress.js';
import { teacherName, visuallyHiddenSx } from './components/format.js';
import { ReassignDialog } from './components/ReassignDialog.js';
import { RubricDialog } from './components/RubricDialog.js';
import { entryListPagePath, phasePagePath } from './paths.js';

type Reviewer = ReviewProgress['reviewers'][number];
type Question = ReviewProgress['questions'][number];

/** `…/phases/{phaseId}/progres-corectare`: how far marking has come, for the exam's staff. */
export function ProgressPage() {
  const { examId = '', editionId = '', phaseId = '' } = useParams();
  const ids: PhaseIds = useMemo(
    () => ({ examId, editionId, phaseId }),
    [examId, editionId, phaseId],
  );
  const context = usePhaseContext(ids);
  const progress = useProgress(ids);
  if (!context.data || !progress.data) {
    return <PhasePageState error={context.error ?? progress.error} back={phasePagePath(ids)} />;
  }
  return <Progress ids={ids} progress={progress.data} context={context.data} />;
}

function Progress({
  ids,
  progress,
  context,
}: {
  ids: PhaseIds;
  progress: ReviewProgress;
  context: NonNullable<ReturnType<typeof usePhaseContext>['data']>;
}) {
  const { t, i18n } = useTranslation();
  const { notify } = useSnackbar();
  const tests = usePhaseTests(ids);
  const reminders = useSendReminders(ids);
  const [skipped, setSkipped] = useState<ReminderResult['skipped']>([]);
  const [reassigning, setReassigning] = useState<Reviewer | null>(null);
  const [rubricOf, setRubricOf] = useState<Question | null>(null);
  const testName = (testId: string) => tests.data?.find((x) => x._id === testId)?.name ?? '';
  const questionName = (q: Question) =>
    [testName(q.testId), t('reviews.itemN', { n: q.itemIndexInTest + 1 })]
      .filter(Boolean)
      .join(' · ');
  const lagging = progress.reviewers.filter((r) => r.open > 0 || r.mediationsOpen > 0);

  const remind = async (teacherIds?: string[]) => {
    try {
      const result = await reminders.mutateAsync(teacherIds ? { teacherIds } : {});
      setSkipped(result.skipped);
      if (result.sent.length > 0 || result.skipped.length === 0) {
        notify('reviews.progress.reminded', 'success', { count: result.sent.length });
      }
    } catch (e) {
      notify('reviews.progress.remindFailed', 'error');
      void e;
    }
  };

  return (
    <Stack spacing={2}>
      <Box>
        <PhaseCrumbs {...context} current={t('reviews.progress.title')} />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
          <Typography variant="h5" component="h1" sx={{ flex: 1, minWidth: 200 }}>
            {t('reviews.progress.title')}
          </Typography>
          <Button
            component={Link}
            to={entryListPagePath(ids, 'reviews')}
            startIcon={<Assignment />}
          >
            {t('reviews.reviews.title')}
          </Button>
          <Button component={Link} to={entryListPagePath(ids, 'appeals')}>
            {t('reviews.appeals.title')}
          </Button>
        </Box>
        {!progress.reviewStarted && (
          <Typography color="warning.dark" sx={{ mt: 1 }}>
            {t('reviews.progress.notStarted')}
          </Typography>
        )}
        {skipped.length > 0 && (
          <Alert severity="warning" onClose={() => setSkipped([])} sx={{ mt: 1 }}>
            {t('reviews.progress.remindSkipped', {
              count: skipped.length,
              hours: REMINDER_INTERVAL_HOURS,
            })}
            <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
              {skipped.map((s) => {
                const r = progress.reviewers.find((x) => x.teacherId === s.teacherId);
                return (
                  <li key={s.teacherId}>
                    {t('reviews.progress.remindAfter', {
                      name: r ? teacherName(r) : '',
                      at: new Intl.DateTimeFormat(i18n.language, {
                        dateStyle: 'medium',
                        timeStyle: 'short',
                      }).format(new Date(s.retryAfter)),
                    })}
                  </li>
                );
              })}
            </Box>
          </Alert>
        )}
      </Box>
      <Paper component="section" aria-labelledby="progress-questions" sx={{ p: { xs: 1, sm: 2 } }}>
        <Typography id="progress-questions" variant="h6" component="h2" sx={{ px: 1 }}>
          {t('reviews.progress.questions')}
        </Typography>
        <TableContainer>
          <Table size="small" aria-label={t('reviews.progress.questions')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('reviews.progress.question')}</TableCell>
                <TableCell align="right">{t('reviews.progress.total')}</TableCell>
                <TableCell align="right">{t('reviews.progress.marked')}</TableCell>
                <TableCell align="right">{t('reviews.progress.needsMediation')}</TableCell>
                <TableCell align="right">{t('reviews.progress.final')}</TableCell>
                <TableCell align="right">{t('reviews.progress.appeals')}</TableCell>
                <TableCell sx={{ minWidth: 120 }}>{t('reviews.progress.done')}</TableCell>
                <TableCell align="right">
                  <Box component="span" sx={visuallyHiddenSx}>
                    {t('list.actions')}
                  </Box>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {progress.questions.map((q) => {
                const share = q.total ? Math.round((q.final / q.total) * 100) : 0;
                return (
                  <TableRow key={q.itemId}>
                    <TableCell component="th" scope="row">
                      {questionName(q)}
                    </TableCell>
                    <TableCell align="right">{q.total}</TableCell>
                    <TableCell align="right">{q.marked}</TableCell>
                    <TableCell
                      align="right"
                      sx={{ color: q.needsMediation ? 'error.main' : undefined }}
                    >
                      {q.needsMediation}
                    </TableCell>
                    <TableCell align="right">{q.final}</TableCell>
                    <TableCell align="right">
                      <Tooltip
                        title={t('reviews.progress.appealsDetail', {
                          pending: q.appealsPending,
                          mediation: q.appealsNeedMediation,
                          resolved: q.appealsResolved,
                        })}
                      >
                        <span>
                          {q.appealsPending + q.appealsNeedMediation}/
                          {q.appealsPending + q.appealsNeedMediation + q.appealsResolved}
                        </span>
                      </Tooltip>
                    </TableCell>
                    <TableCell>
                      <LinearProgress
                        variant="determinate"
                        value={share}
                        aria-label={t('reviews.progress.doneOf', { name: questionName(q), share })}
                      />
                    </TableCell>
                    <TableCell align="right">
                      <Button size="small" onClick={() => setRubricOf(q)}>
                        {t('reviews.rubric.edit')}
                      </Button>
                    </TableCell>
                  </TableRow>
                );
              })}
              {progress.questions.length === 0 && (
                <TableRow>
                  <TableCell colSpan={8}>
                    <Typography color="text.secondary" sx={{ py: 2, textAlign: 'center' }}>
                      {t('reviews.progress.noQuestions')}
                    </Typography>
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>
      <Paper component="section" aria-labelledby="progress-reviewers" sx={{ p: { xs: 1, sm: 2 } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, px: 1, flexWrap: 'wrap' }}>
          <Typography id="progress-reviewers" variant="h6" component="h2" sx={{ flex: 1 }}>
            {t('reviews.progress.reviewers')}
          </Typography>
          <Button
            variant="contained"
            startIcon={<MailOutline />}
            disabled={lagging.length === 0 || reminders.isPending}
            onClick={() => void remind()}
          >
            {lagging.length === 0
              ? t('reviews.progress.remindNone')
              : t('reviews.progress.remindAll', { count: lagging.length })}
          </Button>
        </Box>
        <TableContainer>
          <Table size="small" aria-label={t('reviews.progress.reviewers')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('reviews.progress.teacher')}</TableCell>
                <TableCell align="right">{t('reviews.progress.assigned')}</TableCell>
                <TableCell align="right">{t('reviews.progress.givenMarks')}</TableCell>
                <TableCell align="right">{t('reviews.progress.open')}</TableCell>
                <TableCell align="right">{t('reviews.progress.mediationsOpen')}</TableCell>
                <TableCell align="right">
                  <Box component="span" sx={visuallyHiddenSx}>
                    {t('list.actions')}
                  </Box>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {progress.reviewers.map((r) => (
                <TableRow key={r.teacherId}>
                  <TableCell component="th" scope="row">
                    {teacherName(r)}
                    <Typography variant="body2" color="text.secondary">
                      {r.email}
                    </Typography>
                  </TableCell>
                  <TableCell align="right">{r.assigned}</TableCell>
                  <TableCell align="right">{r.marked}</TableCell>
                  <TableCell align="right" sx={{ color: r.open ? 'warning.dark' : undefined }}>
                    {r.open}
                  </TableCell>
                  <TableCell
                    align="right"
                    sx={{ color: r.mediationsOpen ? 'error.main' : undefined }}
                  >
                    {r.mediationsOpen}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Button
                      size="small"
                      startIcon={<MailOutline />}
                      disabled={(r.open === 0 && r.mediationsOpen === 0) || reminders.isPending}
                      onClick={() => void remind([r.teacherId])}
                      aria-label={t('reviews.progress.remindOne', { name: teacherName(r) })}
                    >
                      {t('reviews.progress.remind')}
                    </Button>
                    <Button
                      size="small"
                      startIcon={<SwapHoriz />}
                      disabled={r.open === 0}
                      onClick={() => setReassigning(r)}
                      aria-label={t('reviews.progress.reassignOne', { name: teacherName(r) })}
                    >
                      {t('reviews.progress.reassign')}
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
              {progress.reviewers.length === 0 && (
                <TableRow>
                  <TableCell colSpan={6}>
                    <Typography color="text.secondary" sx={{ py: 2, textAlign: 'center' }}>
                      {t('reviews.progress.noReviewers')}
                    </Typography>
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      </Paper>
      <ReassignDialog
        ids={ids}
        reviewer={reassigning}
        reviewers={progress.reviewers}
        questions={progress.questions.map((q) => ({ itemId: q.itemId, label: questionName(q) }))}
        onClose={() => setReassigning(null)}
      />
      <RubricDialog
        ids={ids}
        itemId={rubricOf?.itemId ?? null}
        title={rubricOf ? questionName(rubricOf) : ''}
        onClose={() => setRubricOf(null)}
      />
    </Stack>
  );
}
