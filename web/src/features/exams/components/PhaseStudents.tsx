import CheckCircleOutline from '@mui/icons-material/CheckCircleOutline';
import HighlightOff from '@mui/icons-material/HighlightOff';
import { Button, Chip, Grid, Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { BUCHAREST, type County } from '../../../../../shared/constants.js';
import type {
  Exam,
  Phase,
  PhaseResult,
  PhaseStudent,
} from '../../../../../shared/schemas/exams.js';
import { type Column, PagedTable, pagedTableState } from '../../../components/list/PagedTable.js';
import { StudentFilters } from '../../../components/list/StudentFilters.js';
import { studentColumns } from '../../../components/list/student-columns.js';
import { usePagedList } from '../../../components/list/use-paged-list.js';
import { useSelection } from '../../../components/list/use-selection.js';
import { andWhere, equalsWhere, nameSearchWhere } from '../../../components/list/where.js';
import {
  type SectorFilter,
  SectorSelect,
  sectorWhere,
} from '../../../components/pickers/SectorSelect.js';
import { SelectField } from '../../../components/pickers/select-field.js';
import { formatTotal } from '../../../lib/scores.js';
import { usePhaseStudentsCount } from '../api/count-phase-students.js';
import { usePhaseStudents } from '../api/get-phase-students.js';
import { useSetPhaseResults } from '../api/set-phase-results.js';
import { personName } from '../format.js';
import { type ResultsFilter, resultsWhere } from '../results.js';
import { canSetResults } from '../rights.js';
import { hasFailures, useReport } from '../use-report.js';
import { AdmitHelpers } from './AdmitHelpers.js';
import { ResultChip } from './ResultChip.js';
import { SelectionBar } from './SelectionBar.js';

type Filters = {
  search: string;
  county: County | '';
  /** Only with București: one sector, or `none` for those whose sector is not set. */
  sector: SectorFilter;
  grade: number | '';
  results: ResultsFilter;
};

/** Search on the folded names: "stefan" finds "Ștefan". */
const NAME_FIELDS = ['familyNameNormalized', 'givenNameNormalized'];

/**
 * `studentGrade: ''` asks the server for every grade; leaving it out would bring back the
 * exam's first grade (SPEC.md §5).
 */
const toWhere = (f: Filters) =>
  andWhere(
    nameSearchWhere(f.search.toLowerCase(), NAME_FIELDS),
    equalsWhere('studentCounty', f.county),
    f.county === BUCHAREST ? sectorWhere(f.sector, 'studentSector') : undefined,
    { studentGrade: f.grade },
    resultsWhere(f.results),
  );

/** The phase's students with their results; staff and managers admit or reject them. */
export function PhaseStudents({ exam, phase }: { exam: Exam; phase: Phase }) {
  const { t, i18n } = useTranslation();
  const report = useReport();
  const ids = { examId: exam._id, editionId: phase.editionId, phaseId: phase._id };
  const list = usePagedList<Filters>({
    defaultOrder: { field: 'givenName', direction: 'asc' },
    // SPEC.md §5: the grade filter starts on the exam's first grade.
    initialFilters: {
      search: '',
      county: '',
      sector: '',
      grade: exam.grades[0] ?? '',
      results: '',
    },
    toWhere,
  });
  const students = usePhaseStudents(ids, list.filter);
  const count = usePhaseStudentsCount(ids, list.where);
  const selection = useSelection(list.viewKey);
  const setResults = useSetPhaseResults(ids);
  const mayDecide = canSetResults(exam) && phase.state === 'open';

  const handleResult = async (result: PhaseResult) => {
    try {
      const answer = await setResults.mutateAsync({ studentIds: selection.selected, result });
      if (hasFailures(answer)) {
        report.failure(undefined, 'exams.results.failed');
      } else {
        report.success(`exams.results.saved_${result}`, { count: selection.selected.length });
      }
      selection.clear();
    } catch (e) {
      report.failure(e, 'exams.results.failed');
    }
  };

  const columns: Column<PhaseStudent>[] = [
    ...studentColumns<PhaseStudent>(
      t,
      ['familyName', 'givenName', 'county', 'grade', 'school', 'centre'],
      { schoolWidth: 150 },
    ),
    {
      id: 'total',
      label: t('exams.results.total'),
      sortField: 'total',
      align: 'right',
      noWrap: true,
      render: (s) => formatTotal(s.total, i18n.language),
    },
    {
      id: 'awaitingItems',
      label: t('exams.results.awaiting'),
      sortField: 'awaitingItems',
      align: 'right',
      noWrap: true,
      render: (s) => <AwaitingCount count={s.awaitingItems} />,
    },
    {
      id: 'status',
      label: t('exams.results.title'),
      sortField: 'status',
      render: (s) => <ResultChip status={s.status} absent={s.total === null} />,
    },
  ];

  return (
    <Stack spacing={2} component="section" aria-label={t('exams.phases.students')}>
      <Typography variant="h6" component="h2">
        {t('exams.phases.students')}
        {count.data !== undefined && (
          <Typography component="span" color="text.secondary" sx={{ ml: 1 }}>
            ({t('exams.students.total', { count: count.data })})
          </Typography>
        )}
      </Typography>
      {mayDecide && <AdmitHelpers ids={ids} grades={exam.grades} />}
      <StudentFilters
        label={t('exams.students.filters')}
        search={{
          label: t('exams.students.search'),
          placeholder: t('exams.students.searchPlaceholder'),
          value: list.filters.search,
          onChange: (v) => list.setFilter('search', v),
        }}
        county={{ value: list.filters.county, onChange: (v) => list.setFilter('county', v) }}
        grade={{
          grades: exam.grades,
          value: list.filters.grade,
          onChange: (v) => list.setFilter('grade', v),
        }}
        spans={{ search: { xs: 12, lg: 6 }, picker: { xs: 12, sm: 4, lg: 2 } }}
      >
        {list.filters.county === BUCHAREST && (
          <Grid size={{ xs: 12, sm: 4, lg: 2 }}>
            <SectorSelect
              value={list.filters.sector}
              onChange={(v) => list.setFilter('sector', v)}
            />
          </Grid>
        )}
        <Grid size={{ xs: 12, sm: 4, lg: 2 }}>
          <SelectField<Exclude<ResultsFilter, ''>>
            fullWidth
            size="small"
            withAll
            label={t('exams.results.filter')}
            value={list.filters.results}
            onChange={(v) => list.setFilter('results', v)}
            options={[
              { value: 'complete', label: t('exams.results.filterComplete') },
              { value: 'awaiting', label: t('exams.results.filterAwaiting') },
            ]}
          />
        </Grid>
      </StudentFilters>
      <Paper sx={{ p: { xs: 1, sm: 2 } }}>
        <PagedTable
          label={t('exams.phases.students')}
          columns={columns}
          {...pagedTableState(list, students, count)}
          rowKey={(s) => s.studentId}
          rowLabel={personName}
          emptyText={t('exams.students.empty')}
          selectable={mayDecide}
          selected={selection.selected}
          onSelectedChange={selection.setSelected}
          selectionToolbar={
            <SelectionBar count={selection.selected.length}>
              <Button
                size="small"
                variant="contained"
                color="success"
                startIcon={<CheckCircleOutline />}
                disabled={setResults.isPending}
                onClick={() => void handleResult('admitted')}
              >
                {t('exams.results.admit')}
              </Button>
              <Button
                size="small"
                variant="outlined"
                color="error"
                startIcon={<HighlightOff />}
                disabled={setResults.isPending}
                onClick={() => void handleResult('rejected')}
              >
                {t('exams.results.reject')}
              </Button>
            </SelectionBar>
          }
        />
      </Paper>
    </Stack>
  );
}

/** Questions of the student still waiting for marking: none, or how many, in warning colours. */
function AwaitingCount({ count }: { count: number | null }) {
  const { t } = useTranslation();
  if (count === null) return '—';
  if (count === 0) return '0';
  return (
    <Chip
      size="small"
      color="warning"
      variant="outlined"
      label={count}
      aria-label={t('exams.results.awaitingCount', { count })}
    />
  );
}
