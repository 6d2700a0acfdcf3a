import {
  Alert,
  Box,
  Breadcrumbs,
  Button,
  Chip,
  Link,
  Paper,
  Stack,
  type Theme,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import type { MyRanking, RankingRow } from '../../../../shared/schemas/rankings.js';
import { type Column, PagedTable, pagedTableState } from '../../components/list/PagedTable.js';
import { usePagedList } from '../../components/list/use-paged-list.js';
import { PhasePageState } from '../../components/phase/PhasePageState.js';
import { formatTotal } from '../../lib/scores.js';
import { useMyRankings } from './api/get-my-rankings.js';
import { useRanking, useRankingCount } from './api/get-ranking.js';
import { PrizeChip } from './components/RankingChips.js';
import { rowName } from './format.js';

type Filters = { grade: number | null };
const toWhere = (f: Filters) => ({ studentGrade: f.grade ?? '' });

/**
 * /tests/clasament/{examId}/{editionId}/{phaseId}: a phase's ranking as it is published to its
 * students, in the phase's privacy mode (names, initials or codes); the student's row stands out.
 */
export function PublishedRankingPage() {
  const { t } = useTranslation();
  const { examId = '', editionId = '', phaseId = '' } = useParams();
  const mine = useMyRankings();
  const own = mine.data?.find(
    (r) => r.examId === examId && r.editionId === editionId && r.phaseId === phaseId,
  );
  if (!mine.data) return <PhasePageState error={mine.error} back="/tests" />;
  if (!own || own.publication === 'none') {
    return (
      <Alert
        severity="info"
        action={
          <Button component={RouterLink} to="/tests" color="inherit" size="small">
            {t('common.back')}
          </Button>
        }
      >
        {t('rankings.published.notPublished')}
      </Alert>
    );
  }
  return <Published own={own} />;
}

function Published({ own }: { own: MyRanking }) {
  const { t, i18n } = useTranslation();
  const ids = { examId: own.examId, editionId: own.editionId, phaseId: own.phaseId };
  const list = usePagedList<Filters>({
    defaultOrder: { field: 'rank', direction: 'asc' },
    initialFilters: { grade: own.grade },
    toWhere,
    pageSize: 25,
  });
  const rows = useRanking(ids, list.filter);
  const isNarrow = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const count = useRankingCount(ids, list.where);
  const mode = own.publication;
  const who: Column<RankingRow> =
    mode === 'codes'
      ? { id: 'code', label: t('rankings.columns.code'), noWrap: true, render: (r) => r.code }
      : { id: 'name', label: t('rankings.columns.name'), render: (r) => rowName(r) };
  const columns: Column<RankingRow>[] = [
    {
      id: 'rank',
      label: t('rankings.columns.rank'),
      sortField: 'rank',
      align: 'right',
      noWrap: true,
      render: (r) => r.rank,
    },
    {
      ...who,
      render: (r) => (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <span>{who.render(r)}</span>
          {r.isMe && <Chip size="small" color="primary" label={t('rankings.published.you')} />}
        </Box>
      ),
    },
    { id: 'county', label: t('fields.county'), render: (r) => r.studentCounty ?? '—' },
    ...(mode === 'names'
      ? [
          {
            id: 'school',
            label: t('fields.school'),
            maxWidth: 180,
            title: (r: RankingRow) => r.school,
            render: (r: RankingRow) => r.school,
          },
        ]
      : []),
    {
      id: 'total',
      label: t('rankings.columns.total'),
      sortField: 'total',
      align: 'right',
      noWrap: true,
      render: (r) => formatTotal(r.total, i18n.language),
    },
    {
      id: 'prize',
      label: t('rankings.columns.prize'),
      noWrap: true,
      render: (r) => (
        <PrizeChip prize={r.prize} short={isNarrow} provisional={own.phaseState !== 'closed'} />
      ),
    },
  ];
  return (
    <Stack spacing={2}>
      <Box>
        <Breadcrumbs aria-label={t('phaseContent.breadcrumbs')} sx={{ mb: 1 }}>
          <Link component={RouterLink} to="/tests" underline="hover" color="inherit">
            {t('myTests.title')}
          </Link>
          <Typography color="text.primary" aria-current="page">
            {own.phaseName}
          </Typography>
        </Breadcrumbs>
        <Typography variant="overline" color="text.secondary" sx={{ display: 'block' }}>
          {[own.examName, own.editionName].join(' · ')}
        </Typography>
        <Typography variant="h5" component="h1">
          {t('rankings.published.title', {
            phase: own.phaseName,
            grade: own.grade === null ? '' : t(`grades.${own.grade}`),
          })}
        </Typography>
        <Typography color="text.secondary" sx={{ mt: 0.5 }}>
          {t(`rankings.published.mode.${mode}`)}
          {mode === 'codes' && ` ${t('rankings.published.yourCode', { code: own.code })}`}
        </Typography>
      </Box>
      {own.scoreState !== 'final' && (
        <Alert severity={own.scoreState === 'provisional' ? 'info' : 'warning'}>
          {t(`rankings.mine.note.${own.scoreState}`)}
        </Alert>
      )}
      {own.phaseState !== 'closed' && (
        <Alert severity="info">{t('rankings.mine.provisionalAwards')}</Alert>
      )}
      <Paper sx={{ p: { xs: 1, sm: 2 } }}>
        <PagedTable
          label={t('rankings.title')}
          columns={columns}
          {...pagedTableState(list, rows, count)}
          rowKey={(r) => r._id}
          emptyText={t('rankings.empty')}
        />
      </Paper>
    </Stack>
  );
}
