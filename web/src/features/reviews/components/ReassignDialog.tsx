import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReviewProgress } from '../../../../../shared/schemas/reviews.js';
import { ApiError } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { useSnackbar } from '../../../lib/snackbar.js';
import { useReassign } from '../api/progress.js';
import { teacherName } from './format.js';

type Reviewer = ReviewProgress['reviewers'][number];

type Props = {
  ids: PhaseIds;
  reviewer: Reviewer | null;
  reviewers: Reviewer[];
  questions: { itemId: string; label: string }[];
  onClose: () => void;
};

/**
 * A reviewer who cannot mark hands their open papers on: of one question or all, to a named
 * colleague or spread over the question's other reviewers; marks already given stay theirs.
 */
export function ReassignDialog({ ids, reviewer, reviewers, questions, onClose }: Props) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const titleId = useId();
  const reassign = useReassign(ids);
  const [itemId, setItemId] = useState('');
  const [toTeacherId, setTo] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (reviewer) {
      setItemId('');
      setTo('');
      setReason('');
      setError(null);
    }
  }, [reviewer]);

  const handleSubmit = async () => {
    if (!reviewer) return;
    setError(null);
    try {
      const result = await reassign.mutateAsync({
        teacherId: reviewer.teacherId,
        ...(itemId ? { itemId } : {}),
        ...(toTeacherId ? { toTeacherId } : {}),
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      });
      notify(
        result.unmoved ? 'reviews.reassign.partly' : 'reviews.reassign.done',
        result.unmoved ? 'warning' : 'success',
        {
          count: result.moved,
          moved: result.moved,
          unmoved: result.unmoved,
        },
      );
      onClose();
    } catch (e) {
      // A named teacher who coordinates one of the students: the field's own message.
      const conflict = e instanceof ApiError && e.fieldErrors.toTeacherId?.includes('conflict');
      setError(conflict ? 'error_conflict' : 'reviews.reassign.failed');
    }
  };

  return (
    <Dialog
      open={reviewer !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth="sm"
      fullWidth
    >
      <DialogTitle id={titleId}>
        {t('reviews.reassign.title', { name: reviewer ? teacherName(reviewer) : '' })}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <Alert severity="info">
            {t('reviews.reassign.hint', { count: reviewer?.open ?? 0 })}
          </Alert>
          <TextField
            select
            label={t('reviews.reassign.question')}
            value={itemId}
            onChange={(e) => setItemId(e.target.value)}
            size="small"
          >
            <MenuItem value="">{t('reviews.reassign.allQuestions')}</MenuItem>
            {questions.map((q) => (
              <MenuItem key={q.itemId} value={q.itemId}>
                {q.label}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={t('reviews.reassign.to')}
            value={toTeacherId}
            onChange={(e) => setTo(e.target.value)}
            size="small"
          >
            <MenuItem value="">{t('reviews.reassign.spread')}</MenuItem>
            {reviewers
              .filter((r) => r.teacherId !== reviewer?.teacherId)
              .map((r) => (
                <MenuItem key={r.teacherId} value={r.teacherId}>
                  {teacherName(r)}
                </MenuItem>
              ))}
          </TextField>
          <TextField
            label={t('reviews.reassign.reason')}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            multiline
            minRows={2}
            size="small"
          />
          {error && <Alert severity="error">{t(error)}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button
          variant="contained"
          disabled={reassign.isPending}
          onClick={() => void handleSubmit()}
        >
          {t('reviews.reassign.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
