import Assessment from '@mui/icons-material/Assessment';
import Edit from '@mui/icons-material/Edit';
import {
  Badge,
  Box,
  Breadcrumbs,
  Button,
  Chip,
  FormControlLabel,
  IconButton,
  Paper,
  Stack,
  Switch,
  Tab,
  Tabs,
  Tooltip,
  Typography,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import {
  APPEAL_LIST_TYPES,
  type AppealListType,
  type ContestationEntry,
  REVIEW_LIST_TYPES,
  REVIEW_PAGE_SIZE,
  type ReviewEntry,
  type ReviewScope,
} from '../../../../shared/schemas/reviews.js';
import { type Column, PagedTable } from '../../components/list/PagedTable.js';
import type { PhaseIds } from '../../components/phase/get-phase-context.js';
import { useEntries, useEntryCount } from './api/get-entries.js';
import { useReviewScope } from './api/my-phases.js';
import { ScopeCrumb, ScopeState, scopeLine } from './components/ScopeCrumbs.js';
import { formatMark } from './mark-form.js';
import {
  type EntryKind,
  entryListPagePath,
  entryPagePath,
  phasePagePath,
  progressPagePath,
} from './paths.js';
import { listTypeOf } from './review-rules.js';

/** `…/phases/{phaseId}/corectare`: the papers to mark, to mediate, and mediations waiting. */
export function ReviewListPage() {
  return <EntryListPage kind="reviews" />;
}

/** `…/phases/{phaseId}/contestatii`: appeals to re-mark, mediate or decide. */
export function AppealListPage() {
  return <EntryListPage kind="appeals" />;
}

type Entry = ReviewEntry | ContestationEntry;

const NO_ORDER = { field: '', direction: 'asc' } as const;

function EntryListPage({ kind }: { kind: EntryKind }) {
  const { examId = '', editionId = '', phaseId = '' } = useParams();
  const ids: PhaseIds = useMemo(
    () => ({ examId, editionId, phaseId }),
    [examId, editionId, phaseId],
  );
  // Who the caller is here decides the way out: the phase and progress for its staff, "To
  // mark" for a teacher who only marks (the phase page is not theirs).
  const scope = useReviewScope(ids);
  if (!scope.data) return <ScopeState error={scope.error} />;
  return <EntryList ids={ids} kind={kind} scope={scope.data} />;
}

function EntryList({ ids, kind, scope }: { ids: PhaseIds; kind: EntryKind; scope: ReviewScope }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [search, setSearch] = useSearchParams();
  const type = listTypeOf(kind, search.get('tip'));
  const types: readonly AppealListType[] =
    kind === 'reviews' ? REVIEW_LIST_TYPES : APPEAL_LIST_TYPES;
  const [page, setPage] = useState(0);
  const [onlyOpen, setOnlyOpen] = useState(false);
  // "Still to mark" narrows one's own marking work to the papers not marked yet.
  const where = type === 'REVIEW_ITEMS' && onlyOpen ? { marked: false } : undefined;
  const filter = {
    limit: REVIEW_PAGE_SIZE,
    skip: page * REVIEW_PAGE_SIZE,
    type,
    ...(where ? { where } : {}),
  };
  const rows = useEntries(ids, kind, filter);
  const count = useEntryCount(ids, kind, { type, ...(where ?? {}) });

  const chooseType = (next: AppealListType) => {
    setPage(0);
    setSearch(next === 'REVIEW_ITEMS' ? {} : { tip: next }, { replace: true });
  };

  const columns: Column<Entry>[] = [
    {
      id: 'code',
      label: t('reviews.columns.code'),
      render: (e) => <code>{e.code}</code>,
      noWrap: true,
    },
    {
      id: 'item',
      label: t('reviews.columns.item'),
      render: (e) => t('reviews.itemN', { n: e.itemIndexInTest + 1 }),
      noWrap: true,
    },
    {
      id: 'status',
      label: t('reviews.columns.status'),
      render: (e) =>
        'reviewInfo' in e ? (
          <Chip
            size="small"
            color={STATUS_COLOR[e.reviewInfo.status]}
            label={t(`reviews.status.${e.reviewInfo.status}`)}
          />
        ) : (
          <Chip
            size="small"
            color={e.appealInfo.waitsForMarkers ? 'error' : APPEAL_COLOR[e.appealInfo.status]}
            label={t(
              `reviews.appealStatus.${e.appealInfo.waitsForMarkers ? 'waits_for_markers' : e.appealInfo.status}`,
            )}
          />
        ),
    },
    {
      id: 'mine',
      label: t('reviews.columns.mine'),
      align: 'right',
      render: (e) => formatMark(e.reviewerScore, lang),
    },
    {
      id: 'grade1',
      label: t('reviews.columns.grade1'),
      align: 'right',
      render: (e) =>
        formatMark('reviewInfo' in e ? e.reviewInfo.grade1 : e.appealInfo.grade1, lang),
    },
    {
      id: 'grade2',
      label: t('reviews.columns.grade2'),
      align: 'right',
      render: (e) =>
        formatMark('reviewInfo' in e ? e.reviewInfo.grade2 : e.appealInfo.grade2, lang),
    },
    {
      id: 'final',
      label: t('reviews.columns.final'),
      align: 'right',
      render: (e) =>
        formatMark('reviewInfo' in e ? e.reviewInfo.finalScore : e.appealInfo.finalScore, lang),
    },
  ];

  return (
    <Stack spacing={2}>
      <Box>
        <Breadcrumbs aria-label={t('phaseContent.breadcrumbs')} sx={{ mb: 1 }}>
          <ScopeCrumb ids={ids} scope={scope} />
          <Typography color="text.primary" aria-current="page">
            {t(`reviews.${kind}.title`)}
          </Typography>
        </Breadcrumbs>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
          <Box sx={{ flex: 1, minWidth: 200 }}>
            <Typography variant="h5" component="h1">
              {t(`reviews.${kind}.title`)}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {scopeLine(scope)}
            </Typography>
          </Box>
          <Button
            component={Link}
            to={entryListPagePath(ids, kind === 'reviews' ? 'appeals' : 'reviews')}
          >
            {t(`reviews.${kind === 'reviews' ? 'appeals' : 'reviews'}.title`)}
          </Button>
          {/* The staff's tools; a teacher who only marks goes back by the crumb to "To mark". */}
          {scope.seesWholePhase && (
            <>
              <Button component={Link} to={progressPagePath(ids)} startIcon={<Assessment />}>
                {t('reviews.progress.title')}
              </Button>
              <Button component={Link} to={phasePagePath(ids)}>
                {t('reviews.toPhase')}
              </Button>
            </>
          )}
        </Box>
      </Box>
      <Typography color="text.secondary">{t(`reviews.${kind}.intro`)}</Typography>
      <Paper sx={{ p: { xs: 1, sm: 2 } }}>
        <Tabs
          value={type}
          onChange={(_, v: AppealListType) => chooseType(v)}
          variant="scrollable"
          allowScrollButtonsMobile
          aria-label={t('reviews.types.label')}
        >
          {types.map((ty) => (
            <Tab key={ty} value={ty} label={<TypeLabel ids={ids} kind={kind} type={ty} />} />
          ))}
        </Tabs>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 1, px: 1, flexWrap: 'wrap' }}>
          <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
            {t(`reviews.types.hint.${type}`)}
          </Typography>
          {type === 'REVIEW_ITEMS' && (
            <FormControlLabel
              control={
                <Switch
                  checked={onlyOpen}
                  onChange={(e) => {
                    setOnlyOpen(e.target.checked);
                    setPage(0);
                  }}
                />
              }
              label={t('reviews.onlyOpen')}
            />
          )}
        </Box>
        <PagedTable
          label={t(`reviews.types.${type}`)}
          columns={columns}
          rows={rows.data as Entry[] | undefined}
          total={count.data}
          page={page}
          pageSize={REVIEW_PAGE_SIZE}
          onPageChange={setPage}
          order={NO_ORDER}
          onSort={() => {}}
          loading={rows.isFetching || count.isFetching}
          error={rows.isError || count.isError}
          onRetry={() => {
            void rows.refetch();
            void count.refetch();
          }}
          rowKey={(e) => e._id}
          emptyText={t(`reviews.empty.${type}`)}
          rowActions={(e) => (
            <Tooltip title={t('reviews.open')}>
              <IconButton
                component={Link}
                to={entryPagePath(ids, kind, e._id, type === 'REVIEW_ITEMS' ? undefined : type)}
                color="primary"
                aria-label={t('reviews.openPaper', {
                  item: t('reviews.itemN', { n: e.itemIndexInTest + 1 }),
                  code: e.code,
                })}
              >
                <Edit />
              </IconButton>
            </Tooltip>
          )}
        />
      </Paper>
    </Stack>
  );
}

const STATUS_COLOR = { marking: 'warning', needs_mediation: 'error', final: 'success' } as const;
const APPEAL_COLOR = { pending: 'warning', needs_mediation: 'error', resolved: 'success' } as const;

/** A tab's name with how many entries it holds. */
function TypeLabel({ ids, kind, type }: { ids: PhaseIds; kind: EntryKind; type: AppealListType }) {
  const { t } = useTranslation();
  const count = useEntryCount(ids, kind, { type });
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
      <span>{t(`reviews.types.${type}`)}</span>
      <Badge
        badgeContent={count.data ?? 0}
        color={type === 'NEEDS_MEDIATION_ITEMS' || type === 'COMMITTEE_ITEMS' ? 'error' : 'primary'}
        showZero
        max={999}
        sx={{ '& .MuiBadge-badge': { position: 'static', transform: 'none' } }}
      />
    </Box>
  );
}
