import Add from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import Edit from '@mui/icons-material/Edit';
import FileUpload from '@mui/icons-material/FileUpload';
import Visibility from '@mui/icons-material/Visibility';
import {
  Alert,
  Box,
  Button,
  Chip,
  Grid,
  IconButton,
  Paper,
  Stack,
  Toolbar,
  Tooltip,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { QUESTION_PAGE_SIZE, type QuestionListItem } from '../../../../shared/schemas/questions.js';
import { ApiError } from '../../api/client.js';
import { type Column, PagedTable, pagedTableState } from '../../components/list/PagedTable.js';
import { SearchBox } from '../../components/list/SearchBox.js';
import { usePagedList } from '../../components/list/use-paged-list.js';
import { useSelection } from '../../components/list/use-selection.js';
import {
  canManagePhaseContent,
  type PhaseContext,
  type PhaseIds,
  usePhaseContext,
} from '../../components/phase/get-phase-context.js';
import { PhaseCrumbs } from '../../components/phase/PhaseCrumbs.js';
import { PhasePageState } from '../../components/phase/PhasePageState.js';
import { SelectField } from '../../components/pickers/select-field.js';
import { useQuestionsCount } from './api/count-questions.js';
import { useQuestions } from './api/get-questions.js';
import { DeleteQuestionsDialog } from './components/DeleteQuestionsDialog.js';
import { ImportDialog } from './components/ImportDialog.js';
import { QuestionExcerpt } from './components/QuestionExcerpt.js';
import { QuestionFormDialog } from './components/QuestionFormDialog.js';
import { QuestionRowMenu } from './components/QuestionRowMenu.js';
import { QuestionViewDialog } from './components/QuestionViewDialog.js';
import {
  difficultyOptions,
  disciplineLabel,
  disciplineOptions,
  gradeOptions,
  phaseUrl,
  plainExcerpt,
  questionTeachersUrl,
} from './format.js';
import {
  disciplineChange,
  INITIAL_QUESTION_FILTERS,
  type QuestionFilters,
  questionsWhere,
} from './question-filters.js';
import { REVIEWERS_NEEDED } from './question-teachers.js';

/** What a row of the list needs: no answers, so no correct answers travel with the list. */
const LIST_FIELDS = [
  '_id',
  'itemQ',
  'itemCategory',
  'itemDiscipline',
  'itemGrade',
  'difficulty',
  'itemType',
  'mediatorTeacher',
  'gradingTeachers',
  'inTest',
];

/** …/phases/{phaseId}/questions: the phase's question bank. */
export function QuestionsPage() {
  const { examId = '', editionId = '', phaseId = '' } = useParams();
  const ids = { examId, editionId, phaseId };
  const context = usePhaseContext(ids);
  if (!context.data) return <PhasePageState error={context.error} back={phaseUrl(ids)} />;
  return <QuestionBank ids={ids} context={context.data} />;
}

type Editing = { questionId: string | null } | null;
type Deleting = { questions: QuestionListItem[]; isSingle: boolean } | null;

function QuestionBank({ ids, context }: { ids: PhaseIds; context: PhaseContext }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const isWide = useMediaQuery(theme.breakpoints.up('lg'));
  const { exam, phase } = context;
  const isManager = canManagePhaseContent(exam);
  // A closed phase's bank is history: the server refuses changes (PHASE_CLOSED).
  const canChange = isManager && phase.state === 'open';
  const list = usePagedList<QuestionFilters>({
    defaultOrder: { field: 'itemQ', direction: 'asc' },
    initialFilters: INITIAL_QUESTION_FILTERS,
    toWhere: questionsWhere,
    pageSize: QUESTION_PAGE_SIZE,
  });
  const filter = useMemo(() => ({ ...list.filter, fields: LIST_FIELDS }), [list.filter]);
  const questions = useQuestions(ids, filter);
  const count = useQuestionsCount(ids, list.where);
  const selection = useSelection(list.viewKey);
  const [editing, setEditing] = useState<Editing>(null);
  const [viewing, setViewing] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  const [deleting, setDeleting] = useState<Deleting>(null);
  const f = list.filters;
  const rows = questions.data;
  const excerpt = (q: QuestionListItem) => plainExcerpt(q.itemQ ?? '', t('questions.image'));

  const questionTeachers = (q: QuestionListItem) => {
    const reviewers = q.gradingTeachers?.length ?? 0;
    return (
      <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Chip
          size="small"
          clickable
          component={Link}
          to={questionTeachersUrl(ids, q._id, 'mediator')}
          color={q.mediatorTeacher ? 'success' : 'default'}
          variant={q.mediatorTeacher ? 'filled' : 'outlined'}
          label={t(
            q.mediatorTeacher
              ? 'questions.questionTeachers.mediatorChipSet'
              : 'questions.questionTeachers.mediatorChipMissing',
          )}
        />
        <Chip
          size="small"
          clickable
          component={Link}
          to={questionTeachersUrl(ids, q._id, 'reviewers')}
          color={reviewers >= REVIEWERS_NEEDED ? 'success' : 'default'}
          variant={reviewers >= REVIEWERS_NEEDED ? 'filled' : 'outlined'}
          label={t('questions.questionTeachers.reviewersChip', {
            n: reviewers,
            needed: REVIEWERS_NEEDED,
          })}
        />
      </Stack>
    );
  };

  const allColumns: Column<QuestionListItem>[] = [
    {
      id: 'itemQ',
      label: t('questions.fields.itemQ'),
      sortField: 'itemQ',
      render: (q) => (
        <Box sx={{ minWidth: { xs: 140, md: 220 }, maxWidth: 520 }}>
          <QuestionExcerpt markdown={q.itemQ ?? ''} />
          {(q.inTest || isPhone) && (
            <Stack direction="row" spacing={0.5} useFlexGap sx={{ mt: 0.5, flexWrap: 'wrap' }}>
              {q.inTest && <Chip size="small" color="info" label={t('questions.inTest')} />}
              {isPhone && q.itemGrade !== undefined && (
                <Chip size="small" label={t(`grades.${q.itemGrade}`)} />
              )}
              {isPhone && q.difficulty && (
                <Chip
                  size="small"
                  variant="outlined"
                  label={t(`questions.difficulty.${q.difficulty}`)}
                />
              )}
            </Stack>
          )}
        </Box>
      ),
    },
    {
      id: 'itemDiscipline',
      label: t('questions.fields.itemDiscipline'),
      sortField: 'itemDiscipline',
      render: (q) => (
        <>
          {q.itemDiscipline ? disciplineLabel(t, q.itemDiscipline) : ''}
          {q.itemCategory && (
            <Typography variant="body2" color="text.secondary">
              {q.itemCategory}
            </Typography>
          )}
        </>
      ),
    },
    {
      id: 'itemGrade',
      label: t('questions.fields.itemGrade'),
      sortField: 'itemGrade',
      noWrap: true,
      render: (q) => (
        <>
          {q.itemGrade === undefined ? '' : t(`grades.${q.itemGrade}`)}
          {q.difficulty && (
            <Typography variant="body2" color="text.secondary">
              {t(`questions.difficulty.${q.difficulty}`)}
            </Typography>
          )}
        </>
      ),
    },
    {
      id: 'itemType',
      label: t('questions.fields.itemType'),
      sortField: 'itemType',
      render: (q) => (q.itemType ? t(`questions.types.${q.itemType}`) : ''),
    },
    {
      id: 'questionTeachers',
      label: t('questions.questionTeachers.title'),
      render: questionTeachers,
    },
  ];
  // A phone keeps the statement (its grade and difficulty as chips under it) and the actions;
  // a narrow main area drops the type; the question's teachers matter only where answers are marked (hybrid).
  const shown = (id: string) =>
    isPhone
      ? id === 'itemQ'
      : (id !== 'itemType' || isWide) && (id !== 'questionTeachers' || phase.type === 'hybrid');
  const columns = allColumns.filter((c) => shown(c.id));

  const rowActions = (q: QuestionListItem) => (
    <Box sx={{ display: 'inline-flex' }}>
      <Tooltip title={t('questions.actions.view')}>
        <IconButton
          size="small"
          aria-label={t('questions.actions.viewNamed', { name: excerpt(q) })}
          onClick={() => setViewing(q._id)}
        >
          <Visibility fontSize="small" />
        </IconButton>
      </Tooltip>
      {canChange && (
        <Tooltip title={t('questions.actions.edit')}>
          <IconButton
            size="small"
            aria-label={t('questions.actions.editNamed', { name: excerpt(q) })}
            onClick={() => setEditing({ questionId: q._id })}
          >
            <Edit fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      <QuestionRowMenu
        name={excerpt(q)}
        mediatorTo={questionTeachersUrl(ids, q._id, 'mediator')}
        reviewersTo={questionTeachersUrl(ids, q._id, 'reviewers')}
        onDelete={canChange ? () => setDeleting({ questions: [q], isSingle: true }) : undefined}
      />
    </Box>
  );

  const selectionBar = (
    <Toolbar
      variant="dense"
      sx={{ gap: 1, flexWrap: 'wrap', borderRadius: 1, bgcolor: 'action.selected', mb: 1 }}
    >
      <Typography sx={{ flex: 1 }} role="status">
        {t('questions.selected', { count: selection.selected.length })}
      </Typography>
      <Button
        color="error"
        startIcon={<DeleteOutline />}
        onClick={() =>
          setDeleting({
            questions: (rows ?? []).filter((q) => selection.selected.includes(q._id)),
            isSingle: false,
          })
        }
      >
        {t('questions.actions.deleteSelected')}
      </Button>
    </Toolbar>
  );

  // Teachers of the competition who are neither its managers nor its staff (coordinators):
  // the bank is out of their scope, and the page says so instead of showing an empty list.
  const refusal = questions.error instanceof ApiError ? questions.error.code : null;
  if (refusal === 'NOT_FOUND' || refusal === 'OPERATION_NOT_PERMITTED') {
    return (
      <Stack spacing={2}>
        <PhaseCrumbs {...context} current={t('questions.title')} />
        <PhasePageState
          error={questions.error}
          back={phaseUrl(ids)}
          forbiddenKey="question_insufficient_rights"
        />
      </Stack>
    );
  }

  return (
    <Stack spacing={2}>
      <Box>
        <PhaseCrumbs {...context} current={t('questions.title')} />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
          <Box sx={{ flex: 1, minWidth: 200 }}>
            <Typography variant="h5" component="h1">
              {t('questions.title')}
            </Typography>
            <Typography color="text.secondary" variant="body2">
              {phase.name}
              {count.data !== undefined && ` · ${t('questions.total', { count: count.data })}`}
            </Typography>
          </Box>
          {canChange && (
            <>
              <Button
                variant="outlined"
                startIcon={<FileUpload />}
                onClick={() => setImporting(true)}
              >
                {t('questions.actions.import')}
              </Button>
              <Button
                variant="contained"
                startIcon={<Add />}
                onClick={() => setEditing({ questionId: null })}
              >
                {t('questions.actions.add')}
              </Button>
            </>
          )}
        </Box>
      </Box>
      {isManager && phase.state === 'closed' && (
        <Alert severity="info">{t('questions.phaseClosed')}</Alert>
      )}
      {!isManager && <Alert severity="info">{t('questions.viewOnly')}</Alert>}
      <Paper sx={{ p: 2 }} component="section" aria-label={t('questions.filters')}>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 4 }}>
            <SearchBox
              fullWidth
              label={t('questions.search')}
              placeholder={t('questions.searchPlaceholder')}
              value={f.search}
              onChange={(v) => list.setFilter('search', v)}
            />
          </Grid>
          <Grid size={{ xs: 6, sm: 3, md: 2 }}>
            <SelectField
              fullWidth
              size="small"
              withAll
              label={t('questions.fields.itemDiscipline')}
              options={disciplineOptions(t, exam.subject)}
              value={f.discipline}
              onChange={(v) => list.setFilters(disciplineChange(v))}
            />
          </Grid>
          <Grid size={{ xs: 6, sm: 3, md: 2 }}>
            <SearchBox
              fullWidth
              label={t('questions.fields.itemCategory')}
              value={f.category}
              onChange={(v) => list.setFilter('category', v)}
            />
          </Grid>
          <Grid size={{ xs: 6, sm: 3, md: 2 }}>
            <SelectField
              fullWidth
              size="small"
              withAll
              label={t('questions.fields.itemGrade')}
              options={gradeOptions(t, exam.grades)}
              value={f.grade}
              onChange={(v) => list.setFilter('grade', v)}
            />
          </Grid>
          <Grid size={{ xs: 6, sm: 3, md: 2 }}>
            <SelectField
              fullWidth
              size="small"
              withAll
              label={t('questions.fields.difficulty')}
              options={difficultyOptions(t)}
              value={f.difficulty}
              onChange={(v) => list.setFilter('difficulty', v)}
            />
          </Grid>
        </Grid>
      </Paper>
      <Paper sx={{ overflow: 'hidden' }}>
        <PagedTable
          label={t('questions.tableLabel')}
          columns={columns}
          {...pagedTableState(list, questions, count)}
          rowKey={(q) => q._id}
          rowLabel={excerpt}
          emptyText={t('questions.empty')}
          selectable={canChange}
          selected={selection.selected}
          onSelectedChange={selection.setSelected}
          selectionToolbar={selectionBar}
          rowActions={rowActions}
        />
      </Paper>
      <QuestionViewDialog
        ids={ids}
        questionId={viewing}
        showsCorrect={isManager}
        onClose={() => setViewing(null)}
      />
      {canChange && (
        <>
          <QuestionFormDialog
            open={editing !== null}
            ids={ids}
            exam={exam}
            questionId={editing?.questionId ?? null}
            onClose={() => setEditing(null)}
          />
          <ImportDialog
            open={importing}
            ids={ids}
            exam={exam}
            onClose={() => setImporting(false)}
          />
          <DeleteQuestionsDialog
            ids={ids}
            questions={deleting?.questions ?? null}
            isSingle={deleting?.isSingle}
            onDeleted={selection.clear}
            onFailed={() => list.setPage(0)}
            onClose={() => setDeleting(null)}
          />
        </>
      )}
    </Stack>
  );
}
