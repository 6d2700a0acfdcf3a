import Description from '@mui/icons-material/Description';
import FolderOpen from '@mui/icons-material/FolderOpen';
import { Box, Button, Grid, IconButton, Paper, Stack, Tooltip, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import {
  TEST_STUDENT_STATUSES,
  type TestStudent,
  type TestStudentStatus,
  type TestSummary,
} from '../../../../shared/schemas/uploads.js';
import type { TestIds } from '../../components/answer-files/paths.js';
import { type Column, PagedTable, pagedTableState } from '../../components/list/PagedTable.js';
import { SearchBox } from '../../components/list/SearchBox.js';
import { studentColumns } from '../../components/list/student-columns.js';
import { usePagedList } from '../../components/list/use-paged-list.js';
import { andWhere, equalsWhere, nameSearchWhere } from '../../components/list/where.js';
import { type PhaseContext, usePhaseContext } from '../../components/phase/get-phase-context.js';
import { PhasePageState } from '../../components/phase/PhasePageState.js';
import { SelectField } from '../../components/pickers/select-field.js';
import { formatScore } from '../../lib/scores.js';
import { useTestStudentsCount } from './api/count-test-students.js';
import { useTestStudents } from './api/get-test-students.js';
import { useTestSummary } from './api/get-test-summary.js';
import { StatusChip } from './components/StatusChip.js';
import { TestHeader } from './components/TestHeader.js';
import { studentName } from './format.js';
import { paperExamPagePath, phasePagePath, studentAnswersPagePath } from './paths.js';

type Filters = { search: string; status: TestStudentStatus | '' };

/** Search on the folded names: "stefan" finds "Ștefan". */
const NAME_FIELDS = ['familyNameNormalized', 'givenNameNormalized'];
const toWhere = (f: Filters) =>
  andWhere(nameSearchWhere(f.search.toLowerCase(), NAME_FIELDS), equalsWhere('status', f.status));

/** The statuses a test of this type can show. */
const statusesOf = (type: 'online' | 'hybrid'): readonly TestStudentStatus[] =>
  type === 'online'
    ? TEST_STUDENT_STATUSES.filter((s) => s !== 'uploaded')
    : ['not_started', 'uploaded'];

/** `…/phases/{phaseId}/test/{testId}`: the students of a test, how far they got, their score. */
export function TestStudentsPage() {
  const { examId = '', editionId = '', phaseId = '', testId = '' } = useParams();
  const ids: TestIds = { examId, editionId, phaseId, testId };
  const context = usePhaseContext(ids);
  const summary = useTestSummary(ids);
  if (!context.data || !summary.data) {
    return <PhasePageState error={context.error ?? summary.error} back={phasePagePath(ids)} />;
  }
  return <TestStudents ids={ids} context={context.data} summary={summary.data} />;
}

type Props = { ids: TestIds; context: PhaseContext; summary: TestSummary };

function TestStudents({ ids, context, summary }: Props) {
  const { t, i18n } = useTranslation();
  const { test } = summary;
  const isHybrid = test.type === 'hybrid';
  const list = usePagedList<Filters>({
    defaultOrder: { field: 'givenName', direction: 'asc' },
    initialFilters: { search: '', status: '' },
    toWhere,
  });
  const students = useTestStudents(ids, list.filter);
  const count = useTestStudentsCount(ids, list.where);

  const columns: Column<TestStudent>[] = [
    ...studentColumns<TestStudent>(t, ['familyName', 'givenName', 'grade', 'county', 'school']),
    {
      id: 'status',
      label: t('uploads.columns.status'),
      sortField: 'status',
      render: (s) => <StatusChip status={s.status} />,
    },
    isHybrid
      ? {
          id: 'files',
          label: t('uploads.columns.files'),
          sortField: 'fileCount',
          align: 'right',
          render: (s) => s.fileCount,
        }
      : {
          id: 'answered',
          label: t('uploads.columns.answered'),
          sortField: 'answeredItems',
          align: 'right',
          render: (s) => s.answeredItems,
        },
    {
      id: 'score',
      label: t('uploads.columns.score'),
      sortField: 'score',
      align: 'right',
      render: (s) =>
        s.score === null ? (
          <Typography component="span" variant="body2" color="text.secondary">
            —
          </Typography>
        ) : (
          formatScore(s.score, i18n.language)
        ),
    },
  ];

  return (
    <Stack spacing={2}>
      <TestHeader ids={ids} context={context} summary={summary} current={test.name} />
      {isHybrid && summary.canEnterAnswers && summary.uploadState === 'open' && (
        <Typography variant="body2" color="text.secondary">
          {t('uploads.entryHint')}
        </Typography>
      )}
      {isHybrid && summary.canEnterAnswers && (
        <Box>
          <Button
            component={Link}
            to={paperExamPagePath(ids)}
            variant="outlined"
            startIcon={<Description />}
          >
            {t('uploads.paper.open')}
          </Button>
        </Box>
      )}
      <Paper sx={{ p: 2 }} component="section" aria-label={t('uploads.filters')}>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 8 }}>
            <SearchBox
              fullWidth
              label={t('uploads.search')}
              placeholder={t('uploads.searchPlaceholder')}
              value={list.filters.search}
              onChange={(v) => list.setFilter('search', v)}
            />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <SelectField
              fullWidth
              size="small"
              label={t('uploads.columns.status')}
              withAll
              value={list.filters.status}
              onChange={(v) => list.setFilter('status', v)}
              options={statusesOf(test.type).map((s) => ({
                value: s,
                label: t(`uploads.status.${s}`),
              }))}
            />
          </Grid>
        </Grid>
      </Paper>
      <Paper sx={{ p: { xs: 1, sm: 2 } }}>
        <Typography variant="h6" component="h2" sx={{ px: 1 }}>
          {t('uploads.students')}
          {count.data !== undefined && (
            <Typography component="span" color="text.secondary" sx={{ ml: 1 }}>
              ({t('uploads.total', { count: count.data })})
            </Typography>
          )}
        </Typography>
        <PagedTable
          label={t('uploads.students')}
          columns={columns}
          {...pagedTableState(list, students, count)}
          rowKey={(s) => s.studentId}
          rowLabel={studentName}
          emptyText={t('uploads.empty')}
          rowActions={(s) => (
            <Tooltip title={t('uploads.openAnswers')}>
              <IconButton
                component={Link}
                to={studentAnswersPagePath(ids, s.studentId)}
                color="primary"
                aria-label={t('uploads.openAnswersOf', { name: studentName(s) })}
              >
                <FolderOpen />
              </IconButton>
            </Tooltip>
          )}
        />
      </Paper>
    </Stack>
  );
}
