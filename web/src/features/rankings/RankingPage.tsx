import Download from '@mui/icons-material/Download';
import Rule from '@mui/icons-material/Rule';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  FormControlLabel,
  Grid,
  Paper,
  Stack,
  Switch,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { BUCHAREST, type County } from '../../../../shared/constants.js';
import { RANKING_CSV_NAME, type RankingRow } from '../../../../shared/schemas/rankings.js';
import { type Column, PagedTable, pagedTableState } from '../../components/list/PagedTable.js';
import { StudentFilters } from '../../components/list/StudentFilters.js';
import { studentColumns } from '../../components/list/student-columns.js';
import { usePagedList } from '../../components/list/use-paged-list.js';
import { andWhere, equalsWhere, nameSearchWhere } from '../../components/list/where.js';
import { type PhaseContext, usePhaseContext } from '../../components/phase/get-phase-context.js';
import { PhaseCrumbs } from '../../components/phase/PhaseCrumbs.js';
import { PhasePageState } from '../../components/phase/PhasePageState.js';
import {
  type SectorFilter,
  SectorSelect,
  sectorWhere,
} from '../../components/pickers/SectorSelect.js';
import { saveBlob } from '../../lib/download.js';
import { formatTotal } from '../../lib/scores.js';
import { useSnackbar } from '../../lib/snackbar.js';
import { useDownloadRanking } from './api/download-ranking.js';
import { useRanking, useRankingCount, useRankingSummary } from './api/get-ranking.js';
import { rankingKey } from './api/keys.js';
import { DecisionChip, PrizeChip } from './components/RankingChips.js';
import { RankingState } from './components/RankingState.js';
import { rowName } from './format.js';
import { phasePagePath, rulesPagePath } from './paths.js';

/** SPEC.md §3 ranking filter: searchText, studentCounty, studentGrade, onlyActive. */
type Filters = {
  searchText: string;
  studentCounty: County | '';
  /** Only with București: one sector, or `none` for those whose sector is not set. */
  studentSector: SectorFilter;
  studentGrade: number | '';
  onlyActive: boolean;
};

/** Search on the folded names: "stefan" finds "Ștefan". */
const NAME_FIELDS = ['familyNameNormalized', 'givenNameNormalized'];

/** `studentGrade: ''` asks for every grade; left out, the server keeps the exam's first. */
const toWhere = (f: Filters) =>
  andWhere(
    nameSearchWhere(f.searchText.toLowerCase(), NAME_FIELDS),
    equalsWhere('studentCounty', f.studentCounty),
    f.studentCounty === BUCHAREST ? sectorWhere(f.studentSector, 'studentSector') : undefined,
    { studentGrade: f.studentGrade },
    f.onlyActive ? { active: true } : undefined,
  );

const PAGE_SIZES = [10, 25, 50, 100];

/** …/phases/{phaseId}/clasament: the phase's ranking for its commission and coordinators. */
export function RankingPage() {
  const { examId = '', editionId = '', phaseId = '' } = useParams();
  const ids = { examId, editionId, phaseId };
  const context = usePhaseContext(ids);
  if (!context.data) return <PhasePageState error={context.error} back={phasePagePath(ids)} />;
  return <PhaseRanking {...context.data} />;
}

function PhaseRanking({ exam, edition, phase }: PhaseContext) {
  const { t, i18n } = useTranslation();
  const { notifyError } = useSnackbar();
  const ids = { examId: exam._id, editionId: edition._id, phaseId: phase._id };
  const list = usePagedList<Filters>({
    // A ranking reads by place (1, 2, 3…), whatever SPEC.md §3's list once began with; the
    // name and total columns re-sort it.
    defaultOrder: { field: 'rank', direction: 'asc' },
    // SPEC.md §5: the grade filter starts on the exam's first grade.
    initialFilters: {
      searchText: '',
      studentCounty: '',
      studentSector: '',
      studentGrade: exam.grades[0] ?? '',
      onlyActive: false,
    },
    toWhere,
  });
  const rows = useRanking(ids, list.filter);
  const count = useRankingCount(ids, list.where);
  const summary = useRankingSummary(ids);
  const download = useDownloadRanking(ids);
  const isCoordinator = exam.myRole === 'coordinator';
  const setsRules =
    exam.myRole === 'admin' || exam.myRole === 'examAdmin' || exam.myRole === 'staff';

  const updating = summary.data?.updating ?? false;
  // Once the background job has brought the ranking up to date, the page reads it again.
  const queryClient = useQueryClient();
  const wasUpdating = useRef(false);
  useEffect(() => {
    if (wasUpdating.current && !updating) {
      const phaseIds = { examId: exam._id, editionId: edition._id, phaseId: phase._id };
      void queryClient.invalidateQueries({ queryKey: rankingKey(phaseIds) });
    }
    wasUpdating.current = updating;
  }, [updating, queryClient, exam._id, edition._id, phase._id]);

  const handleDownload = async () => {
    try {
      const blob = await download.mutateAsync({ order: list.filter.order, where: list.where });
      saveBlob(blob, RANKING_CSV_NAME);
    } catch (e) {
      notifyError(e, 'rankings.downloadFailed');
    }
  };

  const columns: Column<RankingRow>[] = [
    {
      id: 'rank',
      label: t('rankings.columns.rank'),
      sortField: 'rank',
      align: 'right',
      noWrap: true,
      render: (r) => (
        <Box component="span" sx={{ fontWeight: 600 }}>
          {r.rank}
        </Box>
      ),
    },
    ...studentColumns<RankingRow>(t, ['familyName', 'givenName', 'grade', 'county', 'school'], {
      schoolWidth: 160,
    }),
    {
      id: 'total',
      label: t('rankings.columns.total'),
      sortField: 'total',
      align: 'right',
      noWrap: true,
      render: (r) => formatTotal(r.total, i18n.language),
    },
    {
      id: 'status',
      label: t('rankings.columns.status'),
      render: (r) => <DecisionChip status={r.status} provisional={phase.state !== 'closed'} />,
    },
    {
      id: 'prize',
      label: t('rankings.columns.prize'),
      noWrap: true,
      render: (r) => <PrizeChip prize={r.prize} provisional={phase.state !== 'closed'} />,
    },
  ];

  return (
    <Stack spacing={2}>
      <Box>
        <PhaseCrumbs exam={exam} edition={edition} phase={phase} current={t('rankings.title')} />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
          <Typography variant="h5" component="h1" sx={{ flex: 1, minWidth: 200 }}>
            {t('rankings.title')}
            {count.data !== undefined && (
              <Typography component="span" color="text.secondary" sx={{ ml: 1 }}>
                ({t('rankings.count', { count: count.data })})
              </Typography>
            )}
          </Typography>
          {setsRules && (
            <Button
              component={Link}
              to={rulesPagePath(ids)}
              variant="outlined"
              startIcon={<Rule />}
            >
              {t('rankings.rules.link')}
            </Button>
          )}
          <Button
            variant="contained"
            startIcon={<Download />}
            disabled={download.isPending || count.data === 0 || updating}
            onClick={() => void handleDownload()}
          >
            {t('rankings.download')}
          </Button>
        </Box>
      </Box>
      {updating && (
        <Alert severity="info" data-testid="ranking-updating">
          <AlertTitle>{t('rankings.state.updating')}</AlertTitle>
          {t('rankings.state.updatingHint')}
        </Alert>
      )}
      {summary.data && <RankingState {...summary.data} />}
      {isCoordinator && <Alert severity="info">{t('rankings.coordinatorNote')}</Alert>}
      <StudentFilters
        label={t('rankings.filters')}
        search={{
          label: t('rankings.search'),
          placeholder: t('rankings.searchPlaceholder'),
          value: list.filters.searchText,
          onChange: (v) => list.setFilter('searchText', v),
        }}
        county={{
          value: list.filters.studentCounty,
          onChange: (v) => list.setFilter('studentCounty', v),
        }}
        grade={{
          grades: exam.grades,
          value: list.filters.studentGrade,
          onChange: (v) => list.setFilter('studentGrade', v),
        }}
        spans={{ search: { xs: 12, lg: 5 }, picker: { xs: 12, sm: 4, lg: 2 } }}
      >
        {list.filters.studentCounty === BUCHAREST && (
          <Grid size={{ xs: 12, sm: 4, lg: 2 }}>
            <SectorSelect
              value={list.filters.studentSector}
              onChange={(v) => list.setFilter('studentSector', v)}
            />
          </Grid>
        )}
        <Grid size={{ xs: 12, sm: 4, lg: 3 }}>
          <FormControlLabel
            control={
              <Switch
                checked={list.filters.onlyActive}
                onChange={(e) => list.setFilter('onlyActive', e.target.checked)}
              />
            }
            label={t('rankings.onlyActive')}
          />
        </Grid>
      </StudentFilters>
      <Paper sx={{ p: { xs: 1, sm: 2 } }}>
        <PagedTable
          label={t('rankings.title')}
          columns={columns}
          {...pagedTableState(list, rows, count)}
          rowsPerPageOptions={PAGE_SIZES}
          onPageSizeChange={list.setPageSize}
          rowKey={(r) => r._id}
          rowLabel={rowName}
          emptyText={t('rankings.empty')}
        />
      </Paper>
    </Stack>
  );
}
