import PersonRemove from '@mui/icons-material/PersonRemove';
import {
  Alert,
  Box,
  Button,
  Grid,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  Tab,
  Tabs,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import type { Person } from '../../../../shared/schemas/people.js';
import type { Question } from '../../../../shared/schemas/questions.js';
import {
  canManagePhaseContent,
  type PhaseContext,
  usePhaseContext,
} from '../../components/phase/get-phase-context.js';
import { PhaseCrumbs } from '../../components/phase/PhaseCrumbs.js';
import { PhasePageState } from '../../components/phase/PhasePageState.js';
import { QuestionView } from '../../components/statement/QuestionView.js';
import { useQuestion } from './api/get-question.js';
import { useTeachers } from './api/get-teachers.js';
import type { QuestionIds } from './api/keys.js';
import { AppealRoleLabel } from './components/AppealRoleLabel.js';
import { QuestionMeta } from './components/QuestionMeta.js';
import {
  MARKER_FIELDS,
  QuestionTeacherPicker,
  teacherName,
} from './components/QuestionTeacherPicker.js';
import { questionsUrl, questionTeachersUrl } from './format.js';
import { type QuestionTeacherRole, REVIEWERS_NEEDED } from './question-teachers.js';
import { useQuestionTeachers } from './use-question-teachers.js';

/** …/questions/{questionId}/mediator */
export const QuestionMediatorPage = () => <QuestionTeachersPage questionTeacherRole="mediator" />;
/** …/questions/{questionId}/corectori */
export const QuestionReviewersPage = () => <QuestionTeachersPage questionTeacherRole="reviewers" />;

/** A question's mediator or reviewers (reviewers), with the teacher picker for managers. */
function QuestionTeachersPage({
  questionTeacherRole: role,
}: {
  questionTeacherRole: QuestionTeacherRole;
}) {
  const { examId = '', editionId = '', phaseId = '', questionId = '' } = useParams();
  const ids = { examId, editionId, phaseId, questionId };
  const context = usePhaseContext(ids);
  const question = useQuestion(ids);
  if (!context.data || !question.data) {
    return (
      <PhasePageState
        error={context.error ?? question.error}
        back={context.error ? `/examene/${examId}/editii/${editionId}` : questionsUrl(ids)}
        forbiddenKey="question_insufficient_rights"
      />
    );
  }
  return (
    <QuestionTeachers
      ids={ids}
      questionTeacherRole={role}
      context={context.data}
      question={question.data}
    />
  );
}

type QuestionTeachersProps = {
  ids: QuestionIds;
  questionTeacherRole: QuestionTeacherRole;
  context: PhaseContext;
  question: Question;
};

function QuestionTeachers({
  ids,
  questionTeacherRole: role,
  context,
  question,
}: QuestionTeachersProps) {
  const { t } = useTranslation();
  const isManager = canManagePhaseContent(context.exam);
  const questionTeachers = useQuestionTeachers(ids, role);
  const assigned = [question.mediatorTeacher, ...question.gradingTeachers].filter(Boolean);
  const named = useTeachers(
    {
      where: { _id: { inq: [...assigned].sort() } },
      limit: Math.max(assigned.length, 1),
      skip: 0,
      fields: MARKER_FIELDS,
    },
    { enabled: assigned.length > 0 },
  );
  const byId = new Map((named.data ?? []).map((p) => [p._id, p]));
  const nameOf = (id: string) => {
    const p = byId.get(id);
    return p
      ? teacherName(p)
      : named.isFetching
        ? t('list.loading')
        : t('questions.questionTeachers.unknown');
  };
  const title =
    role === 'mediator'
      ? t('questions.questionTeachers.mediatorTitle')
      : t('questions.questionTeachers.reviewersTitle');
  const mine =
    role === 'mediator'
      ? question.mediatorTeacher
        ? [question.mediatorTeacher]
        : []
      : question.gradingTeachers;
  const others =
    role === 'mediator'
      ? question.gradingTeachers
      : question.mediatorTeacher
        ? [question.mediatorTeacher]
        : [];
  const busy = questionTeachers.updateInProgress;

  const person = (id: string, removable: boolean) => {
    const p: Person | undefined = byId.get(id);
    return (
      <ListItem
        key={id}
        divider
        secondaryAction={
          removable ? (
            <Button
              size="small"
              color="error"
              startIcon={<PersonRemove />}
              disabled={busy}
              onClick={() => void questionTeachers.unassign(question, id)}
              aria-label={t('questions.questionTeachers.removeNamed', { name: nameOf(id) })}
            >
              {t('questions.questionTeachers.remove')}
            </Button>
          ) : undefined
        }
        sx={removable ? { pr: 14 } : undefined}
      >
        <ListItemText
          primary={nameOf(id)}
          secondary={[p?.email, p?.county].filter(Boolean).join(' · ') || undefined}
          slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
        />
      </ListItem>
    );
  };

  const status =
    role === 'mediator'
      ? question.mediatorTeacher
        ? t('questions.questionTeachers.mediatorSet')
        : t('questions.questionTeachers.mediatorMissing')
      : t('questions.questionTeachers.reviewersCount', {
          count: question.gradingTeachers.length,
          needed: REVIEWERS_NEEDED,
        });
  const isComplete =
    role === 'mediator'
      ? !!question.mediatorTeacher
      : question.gradingTeachers.length >= REVIEWERS_NEEDED;

  return (
    <Stack spacing={2}>
      <Box>
        <PhaseCrumbs
          {...context}
          trail={[{ label: t('questions.title'), to: questionsUrl(ids) }]}
          current={title}
        />
        <Typography variant="h5" component="h1">
          {title}
        </Typography>
      </Box>
      <Tabs
        value={role}
        aria-label={t('questions.questionTeachers.title')}
        variant="fullWidth"
        sx={{ maxWidth: 420 }}
      >
        <Tab
          value="mediator"
          label={t('questions.questionTeachers.mediatorPage')}
          component={Link}
          to={questionTeachersUrl(ids, ids.questionId, 'mediator')}
        />
        <Tab
          value="reviewers"
          label={t('questions.questionTeachers.reviewersPage')}
          component={Link}
          to={questionTeachersUrl(ids, ids.questionId, 'reviewers')}
        />
      </Tabs>
      {!isManager && <Alert severity="info">{t('questions.questionTeachers.viewOnly')}</Alert>}
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Paper
            component="section"
            aria-label={t('questions.questionTeachers.question')}
            sx={{ p: 2 }}
          >
            <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
              {t('questions.questionTeachers.question')}
            </Typography>
            <Stack spacing={1.5}>
              <QuestionMeta question={question} />
              <QuestionView
                itemQ={question.itemQ}
                itemType={question.itemType}
                itemAnswers={question.itemAnswers}
                itemCorrectAnswers={isManager ? question.itemCorrectAnswers : undefined}
              />
            </Stack>
          </Paper>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Paper
            component="section"
            aria-label={t(`questions.questionTeachers.current_${role}`)}
            sx={{ p: 2 }}
          >
            <Typography variant="h6" component="h2">
              {t(`questions.questionTeachers.current_${role}`)}
            </Typography>
            <AppealRoleLabel role={role} />
            <Typography
              variant="body2"
              color={isComplete ? 'success.main' : 'warning.main'}
              role="status"
            >
              {status}
            </Typography>
            <Box sx={{ height: 4, my: 0.5 }}>
              {busy && <LinearProgress aria-label={t('questions.questionTeachers.saving')} />}
            </Box>
            {questionTeachers.updateError && (
              <Alert severity="error" sx={{ mb: 1 }}>
                {t(questionTeachers.updateError.key)}
                {questionTeachers.updateError.detail &&
                  ` ${t(questionTeachers.updateError.detail)}`}
              </Alert>
            )}
            {mine.length > 0 ? (
              <List dense aria-label={t(`questions.questionTeachers.current_${role}`)}>
                {mine.map((id) => person(id, isManager))}
              </List>
            ) : (
              <Typography color="text.secondary" sx={{ py: 1 }}>
                {t(`questions.questionTeachers.none_${role}`)}
              </Typography>
            )}
            {others.length > 0 && (
              <Box sx={{ mt: 2 }}>
                <Typography variant="subtitle2" component="h3">
                  {t(`questions.questionTeachers.other_${role}`)}
                </Typography>
                <List dense aria-label={t(`questions.questionTeachers.other_${role}`)}>
                  {others.map((id) => person(id, false))}
                </List>
              </Box>
            )}
          </Paper>
        </Grid>
      </Grid>
      {isManager && (
        <QuestionTeacherPicker
          questionTeacherRole={role}
          question={question}
          disabled={busy}
          onPick={(teacherId) => void questionTeachers.assign(question, teacherId)}
        />
      )}
    </Stack>
  );
}
