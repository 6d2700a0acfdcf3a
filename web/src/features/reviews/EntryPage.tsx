import ArrowBack from '@mui/icons-material/ArrowBack';
import ArrowForward from '@mui/icons-material/ArrowForward';
import History from '@mui/icons-material/History';
import Refresh from '@mui/icons-material/Refresh';
import {
  Alert,
  Box,
  Breadcrumbs,
  Button,
  Grid,
  Link,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useParams, useSearchParams } from 'react-router';
import { MAX_PAGE_SIZE } from '../../../../shared/constants.js';
import type {
  AppealDetail,
  AppealListType,
  Mark,
  MarkInput,
  ReviewDetail,
} from '../../../../shared/schemas/reviews.js';
import type { PhaseIds } from '../../components/phase/get-phase-context.js';
import { PhasePageState } from '../../components/phase/PhasePageState.js';
import { useSnackbar } from '../../lib/snackbar.js';
import { useEntries } from './api/get-entries.js';
import { useEntry } from './api/get-entry.js';
import { useReviewScope } from './api/my-phases.js';
import { type MarkAs, useSaveMark } from './api/save-mark.js';
import { AnswerViewer } from './components/AnswerViewer.js';
import { CommitteePanel } from './components/CommitteePanel.js';
import { submittedText } from './components/format.js';
import { HistoryDialog } from './components/HistoryDialog.js';
import { MarkForm, type MarkFormValues } from './components/MarkForm.js';
import { AppealSummary, ReviewSummary } from './components/MarksSummary.js';
import { QuestionPanel } from './components/QuestionPanel.js';
import { ScopeCrumb } from './components/ScopeCrumbs.js';
import { useShortcuts } from './keyboard.js';
import { markRefusal } from './mark-form.js';
import { type EntryKind, entryListPagePath, entryPagePath } from './paths.js';
import { listTypeOf } from './review-rules.js';

/** `…/phases/{phaseId}/corectare/{reviewId}`: a paper to mark or mediate. */
export function ReviewEntryPage() {
  return <EntryPage kind="reviews" />;
}

/** `…/phases/{phaseId}/contestatii/{reviewId}`: an appealed item to re-mark, mediate or decide. */
export function AppealEntryPage() {
  return <EntryPage kind="appeals" />;
}

function EntryPage({ kind }: { kind: EntryKind }) {
  const { examId = '', editionId = '', phaseId = '', reviewId = '' } = useParams();
  const ids: PhaseIds = useMemo(
    () => ({ examId, editionId, phaseId }),
    [examId, editionId, phaseId],
  );
  const [search] = useSearchParams();
  const type = listTypeOf(kind, search.get('tip'));
  const detail = useEntry(ids, kind, reviewId);
  if (!detail.data) {
    return <PhasePageState error={detail.error} back={entryListPagePath(ids, kind, type)} />;
  }
  return (
    <EntryScreen
      key={reviewId}
      ids={ids}
      kind={kind}
      type={type}
      detail={detail.data as ReviewDetail | AppealDetail}
      isRefreshing={detail.isFetching}
      onReload={() => void detail.refetch()}
    />
  );
}

type ScreenProps = {
  ids: PhaseIds;
  kind: EntryKind;
  type: AppealListType;
  detail: ReviewDetail | AppealDetail;
  isRefreshing: boolean;
  onReload: () => void;
};

function EntryScreen({ ids, kind, type, detail, isRefreshing, onReload }: ScreenProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { notify } = useSnackbar();
  const { entry, question, answer, rubric } = detail;
  const isAppeal = 'appealInfo' in entry;
  const marks: Mark[] = isAppeal ? entry.appeals : entry.reviews;
  const info = isAppeal ? entry.appealInfo : entry.reviewInfo;
  const [historyOpen, setHistoryOpen] = useState(false);
  const [conflict, setConflict] = useState(false);
  const [serverError, setServerError] = useState<{
    as: MarkAs;
    field: 'reviewerScore' | 'criteria';
    code: NonNullable<ReturnType<typeof markRefusal>['code']>;
  } | null>(null);
  const save = useSaveMark(ids, kind, entry._id);
  const scope = useReviewScope(ids);

  // Next and previous walk the list the paper was opened from.
  const list = useEntries(ids, kind, { limit: MAX_PAGE_SIZE, skip: 0, type });
  const order = (list.data ?? []).map((e) => e._id);
  const at = order.indexOf(entry._id);
  const previousId = at > 0 ? order[at - 1] : undefined;
  const nextId = at >= 0 && at < order.length - 1 ? order[at + 1] : undefined;
  const go = (id: string | undefined) => {
    if (id) navigate(entryPagePath(ids, kind, id, type));
  };
  useShortcuts({
    ArrowLeft: () => go(previousId),
    ArrowRight: () => go(nextId),
    h: () => setHistoryOpen(true),
  });

  const title = t('reviews.itemN', { n: entry.itemIndexInTest + 1 });
  const myMark = marks.find((m) => m.isMine);
  const markInitial: MarkFormValues = {
    score: myMark?.reviewerScore ?? null,
    criteria: myMark?.criteria ?? [],
    note: myMark?.note ?? null,
  };
  const mediationInitial: MarkFormValues = {
    score: info.mediatorScore,
    criteria: [],
    note: info.mediatorNote,
  };

  const handleSubmit = async (as: MarkAs, body: MarkInput, then: 'stay' | 'next') => {
    setServerError(null);
    try {
      await save.mutateAsync({ as, body });
      setConflict(false);
      notify('msg_success_add_mark', 'success');
      if (then === 'next') go(nextId);
    } catch (e) {
      const refusal = markRefusal(
        e,
        as === 'mediation' ? 'message_mediation_failed' : 'msg_failed_add_mark',
      );
      if (refusal.key === 'errors.REVIEW_CHANGED') {
        // Another tab or person changed the paper: show it as it is now (the save refreshed it).
        setConflict(true);
        return;
      }
      if (refusal.field && refusal.code) {
        setServerError({ as, field: refusal.field, code: refusal.code });
      }
      notify(refusal.key, 'error');
    }
  };

  const canDecide = isAppeal && entry.canDecide && entry.appealInfo.kind === 'committee';
  const nothingToDo = !entry.canMark && !entry.canMediate && !canDecide;

  return (
    <Stack spacing={2}>
      <Box>
        <Breadcrumbs aria-label={t('phaseContent.breadcrumbs')} sx={{ mb: 1 }}>
          {scope.data && <ScopeCrumb ids={ids} scope={scope.data} />}
          <Link
            component={RouterLink}
            to={entryListPagePath(ids, kind, type)}
            underline="hover"
            color="inherit"
          >
            {t(`reviews.${kind}.title`)}
          </Link>
          <Typography color="text.primary" aria-current="page">
            {t(`reviews.types.${type}`)}
          </Typography>
        </Breadcrumbs>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography variant="h5" component="h1" sx={{ flex: 1, minWidth: 220 }}>
            {title} · {t('reviews.paper', { code: entry.code })}
          </Typography>
          <Button
            startIcon={<ArrowBack />}
            disabled={!previousId}
            onClick={() => go(previousId)}
            aria-keyshortcuts="ArrowLeft"
          >
            {t('reviews.previous')}
          </Button>
          {at >= 0 && (
            <Typography variant="body2" color="text.secondary">
              {t('reviews.position', { n: at + 1, total: order.length })}
            </Typography>
          )}
          <Button
            endIcon={<ArrowForward />}
            disabled={!nextId}
            onClick={() => go(nextId)}
            aria-keyshortcuts="ArrowRight"
          >
            {t('reviews.next')}
          </Button>
          <Button startIcon={<History />} variant="outlined" onClick={() => setHistoryOpen(true)}>
            {t('reviews.history.open')}
          </Button>
        </Box>
        <Typography variant="caption" color="text.secondary">
          {t('reviews.shortcuts')}
        </Typography>
      </Box>
      {conflict && (
        <Alert
          severity="warning"
          action={
            <Button
              color="inherit"
              size="small"
              startIcon={<Refresh />}
              onClick={onReload}
              disabled={isRefreshing}
            >
              {t('reviews.reload')}
            </Button>
          }
        >
          {t('reviews.reloaded')}
        </Alert>
      )}
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 7 }}>
          <AnswerViewer
            ids={ids}
            kind={kind}
            reviewId={entry._id}
            code={entry.code}
            pages={answer.pages}
            text={answer.text}
            submitted={'submittedAnswer' in answer ? submittedText(answer.submittedAnswer) : null}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <Stack spacing={2}>
            <QuestionPanel
              ids={ids}
              kind={kind}
              reviewId={entry._id}
              question={question}
              title={title}
            />
            <Paper component="section" aria-label={t('reviews.marks')} sx={{ p: 2 }}>
              <Stack spacing={2}>
                {isAppeal ? (
                  <AppealSummary marks={marks} info={entry.appealInfo} />
                ) : (
                  <ReviewSummary marks={marks} info={entry.reviewInfo} />
                )}
                {entry.canMark && (
                  <MarkForm
                    key={`mark-${entry.version}`}
                    title={t(isAppeal ? 'reviews.mark.appealTitle' : 'reviews.mark.title')}
                    maxScore={info.maxScore}
                    markStep={info.markStep}
                    criteria={rubric.criteria}
                    initial={markInitial}
                    version={entry.version}
                    busy={save.isPending}
                    serverError={serverError?.as === 'mark' ? serverError : null}
                    submitLabel={t('reviews.mark.save')}
                    canGoNext={nextId !== undefined}
                    onSubmit={(body, then) => void handleSubmit('mark', body, then)}
                  />
                )}
                {entry.canMediate && (
                  <MarkForm
                    key={`mediation-${entry.version}`}
                    title={t('reviews.mark.mediationTitle')}
                    maxScore={info.maxScore}
                    markStep={info.markStep}
                    criteria={rubric.criteria}
                    initial={mediationInitial}
                    version={entry.version}
                    busy={save.isPending}
                    serverError={serverError?.as === 'mediation' ? serverError : null}
                    submitLabel={t('reviews.mark.saveMediation')}
                    canGoNext={nextId !== undefined}
                    onSubmit={(body, then) => void handleSubmit('mediation', body, then)}
                  />
                )}
                {canDecide && <CommitteePanel ids={ids} entry={entry} question={question} />}
                {nothingToDo && <Alert severity="info">{t('reviews.nothingToDo')}</Alert>}
              </Stack>
            </Paper>
          </Stack>
        </Grid>
      </Grid>
      <HistoryDialog
        ids={ids}
        kind={kind}
        reviewId={entry._id}
        open={historyOpen}
        onClose={() => setHistoryOpen(false)}
      />
    </Stack>
  );
}
