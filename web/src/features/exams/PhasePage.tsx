import Assignment from '@mui/icons-material/Assignment';
import Edit from '@mui/icons-material/Edit';
import EmojiEvents from '@mui/icons-material/EmojiEvents';
import Leaderboard from '@mui/icons-material/Leaderboard';
import Lock from '@mui/icons-material/Lock';
import LockOpen from '@mui/icons-material/LockOpen';
import MonitorHeart from '@mui/icons-material/MonitorHeart';
import Quiz from '@mui/icons-material/Quiz';
import Rule from '@mui/icons-material/Rule';
import { Box, Button, FormControlLabel, Paper, Stack, Switch, Typography } from '@mui/material';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { Edition, Exam, Phase } from '../../../../shared/schemas/exams.js';
import type { PhaseClosed } from '../../../../shared/schemas/phase-reopen.js';
import { DiplomaZipPanel } from '../../components/diplomas/DiplomaZipPanel.js';
import { StaleDiplomasPanel } from '../../components/diplomas/StaleDiplomasPanel.js';
import { ConfirmDialog } from '../../components/list/ConfirmDialog.js';
import { CloseChangesDialog } from '../../components/phase/CloseChangesDialog.js';
import { useFinishPhase } from './api/finish-phase.js';
import { useEdition } from './api/get-edition.js';
import { useExam } from './api/get-exam.js';
import { usePhase } from './api/get-phase.js';
import { usePatchPhase } from './api/patch-phase.js';
import { CloseError, openScoresOf } from './components/CloseError.js';
import { DetailList } from './components/DetailList.js';
import { ExamBreadcrumbs } from './components/ExamBreadcrumbs.js';
import { PageState } from './components/PageState.js';
import { PhaseFormDialog } from './components/PhaseFormDialog.js';
import { PhaseStateChip } from './components/PhaseStateChip.js';
import { PhaseStudents } from './components/PhaseStudents.js';
import { ReopenPhaseDialog } from './components/ReopenPhaseDialog.js';
import { formatDateTime } from './format.js';
import { canManage, canSetResults } from './rights.js';
import { useReport } from './use-report.js';

/**
 * /examene/{examId}/editii/{editionId}/phases/{phaseId}: the phase and its students;
 * `reviewSection` is the marking section the app puts in (the reviews feature's).
 */
export function PhasePage({ reviewSection }: { reviewSection?: ReactNode }) {
  const { examId = '', editionId = '', phaseId = '' } = useParams();
  const exam = useExam(examId);
  const edition = useEdition({ examId, editionId });
  const phase = usePhase({ examId, editionId, phaseId });
  if (!exam.data || !edition.data || !phase.data) {
    return (
      <PageState
        error={exam.error ?? edition.error ?? phase.error}
        back={`/examene/${examId}/editii/${editionId}`}
      />
    );
  }
  return (
    <PhaseDetail
      exam={exam.data}
      edition={edition.data}
      phase={phase.data}
      reviewSection={reviewSection}
    />
  );
}

type DetailProps = { exam: Exam; edition: Edition; phase: Phase; reviewSection?: ReactNode };

function PhaseDetail({ exam, edition, phase, reviewSection }: DetailProps) {
  const { t, i18n } = useTranslation();
  const report = useReport();
  const ids = { examId: exam._id, editionId: edition._id, phaseId: phase._id };
  const patch = usePatchPhase(ids);
  const finish = useFinishPhase(ids);
  const [editing, setEditing] = useState(false);
  const [closing, setClosing] = useState(false);
  const [isAccepting, setAccepting] = useState(false);
  const [reopening, setReopening] = useState(false);
  // A close after a reopening answers who changes; the dialog lists them.
  const [closedAgain, setClosedAgain] = useState<PhaseClosed | null>(null);
  const isManager = canManage(exam);
  const isOpen = phase.state === 'open';

  const handleRegistration = async (registrationOpen: boolean) => {
    try {
      await patch.mutateAsync({ registrationOpen });
      report.success(
        registrationOpen ? 'exams.phases.registrationOpened' : 'exams.phases.registrationStopped',
      );
    } catch (e) {
      report.failure(e, 'msg_change_error');
    }
  };

  const handleClose = async () => {
    try {
      // "Close anyway" accepts exactly what the refusal listed; the server checks it still is.
      const open = isAccepting ? openScoresOf(finish.error) : undefined;
      const closed = await finish.mutateAsync(
        open ? { acceptOpen: { reviewIds: open.reviewIds, appealIds: open.appealIds } } : {},
      );
      report.success('exams.phases.closed', { count: closed.advancedCount });
      setClosing(false);
      setClosedAgain(closed);
    } catch {
      // The dialog shows why (CloseError), as SPEC.md §8 asks.
    }
  };

  return (
    <Stack spacing={2}>
      <Box>
        <ExamBreadcrumbs
          items={[
            { label: t('exams.title'), to: '/examene' },
            { label: exam.name, to: `/examene/${exam._id}` },
            { label: edition.name, to: `/examene/${exam._id}/editii/${edition._id}` },
            { label: phase.name },
          ]}
        />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
          <Typography variant="h5" component="h1" sx={{ flex: 1, minWidth: 200 }}>
            {phase.name}
          </Typography>
          <PhaseStateChip state={phase.state} />
          {canSetResults(exam) && (
            <Button
              component={Link}
              to={`/examene/${exam._id}/editii/${edition._id}/phases/${phase._id}/tests`}
              variant="outlined"
              startIcon={<Assignment />}
            >
              {t('phaseContent.tests')}
            </Button>
          )}
          <Button
            component={Link}
            to={`/examene/${exam._id}/editii/${edition._id}/phases/${phase._id}/ziua-examenului`}
            variant="outlined"
            startIcon={<MonitorHeart />}
          >
            {t('examDay.open')}
          </Button>
          <Button
            component={Link}
            to={`/examene/${exam._id}/editii/${edition._id}/phases/${phase._id}/clasament`}
            variant="outlined"
            startIcon={<Leaderboard />}
          >
            {t('exams.phases.ranking')}
          </Button>
          {canSetResults(exam) && (
            <Button
              component={Link}
              to={`/examene/${exam._id}/editii/${edition._id}/phases/${phase._id}/reguli`}
              variant="outlined"
              startIcon={<Rule />}
            >
              {t('exams.phases.rules')}
            </Button>
          )}
          {canSetResults(exam) && (
            <Button
              component={Link}
              to={`/examene/${exam._id}/editii/${edition._id}/phases/${phase._id}/questions`}
              variant="outlined"
              startIcon={<Quiz />}
            >
              {t('questions.link')}
            </Button>
          )}
          {isManager && (
            <>
              <Button variant="outlined" startIcon={<Edit />} onClick={() => setEditing(true)}>
                {t('exams.phases.edit')}
              </Button>
              <Button
                variant="contained"
                color="warning"
                startIcon={<Lock />}
                disabled={!isOpen}
                onClick={() => {
                  finish.reset();
                  setAccepting(false);
                  setClosing(true);
                }}
              >
                {t('exams.phases.close')}
              </Button>
              {!isOpen && (
                <Button
                  variant="outlined"
                  color="warning"
                  startIcon={<LockOpen />}
                  onClick={() => setReopening(true)}
                >
                  {t('phaseReopen.open')}
                </Button>
              )}
            </>
          )}
        </Box>
      </Box>
      <Paper sx={{ p: 2 }} component="section" aria-label={t('exams.phases.details')}>
        <DetailList
          items={[
            { label: t('exams.phases.fields.type'), value: t(`exams.phases.types.${phase.type}`) },
            {
              label: t('exams.phases.fields.startDate'),
              value: formatDateTime(phase.startDate, i18n.language),
            },
            {
              label: t('exams.phases.fields.endDate'),
              value: formatDateTime(phase.endDate, i18n.language),
            },
            {
              label: t('exams.phases.fields.appeals'),
              value:
                phase.appealStartDate && phase.appealEndDate
                  ? `${formatDateTime(phase.appealStartDate, i18n.language)} – ${formatDateTime(
                      phase.appealEndDate,
                      i18n.language,
                    )}`
                  : t('exams.phases.noAppeals'),
            },
            ...(phase.closedAt
              ? [
                  {
                    label: t('exams.phases.fields.closedAt'),
                    value: formatDateTime(phase.closedAt, i18n.language),
                  },
                ]
              : []),
          ]}
        />
        <FormControlLabel
          sx={{ mt: 1 }}
          control={
            <Switch
              checked={phase.registrationOpen}
              disabled={!isManager || !isOpen || patch.isPending}
              onChange={(e) => void handleRegistration(e.target.checked)}
            />
          }
          label={t('exams.phases.registrationSwitch')}
        />
      </Paper>
      {reviewSection}
      <PhaseStudents exam={exam} phase={phase} />
      {canSetResults(exam) && <StaleDiplomasPanel ids={ids} isClosed={!isOpen} />}
      {canSetResults(exam) && <DiplomaZipPanel ids={ids} isClosed={!isOpen} />}
      {exam.myRole === 'coordinator' && (
        <Box>
          <Button component={Link} to="/diploma/teacher" startIcon={<EmojiEvents />}>
            {t('exams.phases.myStudentsDiplomas')}
          </Button>
        </Box>
      )}
      {isManager && (
        <>
          <PhaseFormDialog
            open={editing}
            ids={{ examId: exam._id, editionId: edition._id }}
            phase={phase}
            onClose={() => setEditing(false)}
          />
          <ConfirmDialog
            open={closing}
            title={t('exams.phases.closeTitle')}
            message={t('exams.phases.closeMessage', { name: phase.name })}
            confirmLabel={t('exams.phases.close')}
            busy={finish.isPending}
            error={
              finish.error ? (
                <CloseError
                  error={finish.error}
                  isAccepting={isAccepting}
                  onAcceptChange={setAccepting}
                />
              ) : undefined
            }
            extraActions={
              isAccepting && openScoresOf(finish.error) ? (
                <Button
                  variant="contained"
                  color="warning"
                  disabled={finish.isPending}
                  onClick={() => void handleClose()}
                >
                  {t('exams.phases.openScores.confirm')}
                </Button>
              ) : undefined
            }
            onConfirm={() => void handleClose()}
            onClose={() => setClosing(false)}
          />
          <ReopenPhaseDialog
            open={reopening}
            ids={ids}
            phase={phase}
            onClose={() => setReopening(false)}
          />
          <CloseChangesDialog closed={closedAgain} onClose={() => setClosedAgain(null)} />
        </>
      )}
    </Stack>
  );
}
