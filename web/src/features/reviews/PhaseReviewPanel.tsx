import Assessment from '@mui/icons-material/Assessment';
import Gavel from '@mui/icons-material/Gavel';
import PlayArrow from '@mui/icons-material/PlayArrow';
import RateReview from '@mui/icons-material/RateReview';
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Chip,
  Link,
  List,
  ListItem,
  Paper,
  Typography,
} from '@mui/material';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import type { InsufficientTeachersDetail } from '../../../../shared/schemas/reviews.js';
import { ApiError } from '../../api/client.js';
import { ConfirmDialog } from '../../components/list/ConfirmDialog.js';
import {
  canManagePhaseContent,
  type PhaseIds,
  usePhaseContext,
} from '../../components/phase/get-phase-context.js';
import { Statement } from '../../components/statement/Statement.js';
import { useSnackbar } from '../../lib/snackbar.js';
import { useBankQuestion } from './api/get-question.js';
import { useMarkingScope } from './api/marking-scope.js';
import { useStartReview } from './api/start-review.js';
import { entryListPagePath, progressPagePath, questionTeachersPagePath } from './paths.js';
import { missingByQuestion } from './review-rules.js';

/**
 * The phase page's marking section: whether marking has started, the button that starts it
 * (the exam's managers), and the way to the marking, appeal and progress screens. A refused
 * start lists the questions still missing a mediator or reviewers, each linking to its page.
 */
export function PhaseReviewPanel() {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const { examId = '', editionId = '', phaseId = '' } = useParams();
  const ids: PhaseIds = useMemo(
    () => ({ examId, editionId, phaseId }),
    [examId, editionId, phaseId],
  );
  const context = usePhaseContext(ids);
  const start = useStartReview(ids);
  const scope = useMarkingScope(ids);
  const [confirming, setConfirming] = useState(false);
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  if (!context.data || !scope.data) return null;
  const { exam, phase } = context.data;
  const isManager = canManagePhaseContent(exam);
  const isStaff = isManager || exam.myRole === 'staff';
  // An online phase without open questions has nothing for people to mark: only appeals on the
  // key, which its committee decides.
  const hasMarking = scope.data.questionsToMark > 0;
  const isClosed = phase.state === 'closed';
  const hint = !hasMarking
    ? 'reviews.start.nothingToMark'
    : isClosed
      ? 'reviews.start.closedHint'
      : phase.reviewStarted
        ? 'reviews.start.startedHint'
        : 'reviews.start.hint';

  const handleStart = async () => {
    setConfirming(false);
    setRefusal(null);
    try {
      await start.mutateAsync();
      notify('reviews.start.started', 'success');
    } catch (e) {
      if (e instanceof ApiError && e.code === 'INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS') {
        setRefusal(e);
      } else if (e instanceof ApiError && i18nCodes.has(e.code)) {
        notify(`errors.${e.code}`, 'error');
      } else {
        notify('reviews.start.failed', 'error');
      }
    }
  };

  const missing = refusal ? missingByQuestion(refusal.details) : new Map();
  return (
    <Paper component="section" aria-labelledby="phase-review" sx={{ p: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Typography id="phase-review" variant="h6" component="h2" sx={{ flex: 1, minWidth: 160 }}>
          {t(hasMarking ? 'reviews.start.section' : 'reviews.start.appealsSection')}
        </Typography>
        {hasMarking && (
          <Chip
            size="small"
            color={phase.reviewStarted ? 'success' : 'default'}
            label={t(
              phase.reviewStarted ? 'reviews.start.startedChip' : 'reviews.start.notStarted',
            )}
          />
        )}
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ my: 1 }}>
        {t(hint)}
      </Typography>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        {hasMarking && isManager && !phase.reviewStarted && (
          <Button
            variant="contained"
            startIcon={<PlayArrow />}
            disabled={start.isPending || isClosed}
            onClick={() => setConfirming(true)}
          >
            {t('reviews.start.button')}
          </Button>
        )}
        {hasMarking && (
          <Button
            component={RouterLink}
            to={entryListPagePath(ids, 'reviews')}
            variant="outlined"
            startIcon={<RateReview />}
          >
            {t('reviews.reviews.title')}
          </Button>
        )}
        <Button
          component={RouterLink}
          to={entryListPagePath(ids, 'appeals')}
          variant="outlined"
          startIcon={<Gavel />}
        >
          {t('reviews.appeals.title')}
        </Button>
        {isStaff && (
          <Button
            component={RouterLink}
            to={progressPagePath(ids)}
            variant="outlined"
            startIcon={<Assessment />}
          >
            {t('reviews.progress.title')}
          </Button>
        )}
      </Box>
      {refusal && (
        <Alert severity="warning" sx={{ mt: 2 }} onClose={() => setRefusal(null)}>
          <AlertTitle>{t('errors.INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS')}</AlertTitle>
          {t('reviews.start.missingIntro', { count: missing.size })}
          <List dense aria-label={t('reviews.start.missingList')}>
            {[...missing.entries()].map(([itemId, fields]) => (
              <MissingQuestion key={itemId} ids={ids} itemId={itemId} fields={fields} />
            ))}
          </List>
        </Alert>
      )}
      <ConfirmDialog
        open={confirming}
        title={t('reviews.start.confirmTitle')}
        message={t('reviews.start.confirmMessage', { name: phase.name })}
        confirmLabel={t('reviews.start.button')}
        busy={start.isPending}
        onConfirm={() => void handleStart()}
        onClose={() => setConfirming(false)}
      />
    </Paper>
  );
}

const i18nCodes = new Set([
  'TESTS_STILL_RUNNING',
  'SCAN_PAGES_WAITING',
  'PHASE_CLOSED',
  'OPERATION_NOT_PERMITTED',
  'CLIENT_ERROR',
]);

function MissingQuestion({
  ids,
  itemId,
  fields,
}: {
  ids: PhaseIds;
  itemId: string;
  fields: InsufficientTeachersDetail['field'][];
}) {
  const { t } = useTranslation();
  const question = useBankQuestion(ids, itemId);
  return (
    <ListItem
      disableGutters
      sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}
    >
      <Box sx={{ flex: 1, minWidth: 200, maxHeight: '3.2em', overflow: 'hidden', fontWeight: 600 }}>
        {question.data ? (
          <Statement markdown={question.data.itemQ} inline />
        ) : (
          t('reviews.start.question')
        )}
      </Box>
      {fields.map((field) => (
        <Link key={field} component={RouterLink} to={questionTeachersPagePath(ids, itemId, field)}>
          {t(`reviews.start.missing.${field}`)}
        </Link>
      ))}
    </ListItem>
  );
}
