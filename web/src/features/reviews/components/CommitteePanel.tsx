import Gavel from '@mui/icons-material/Gavel';
import { Box, Button, Divider, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContestationEntry, ReviewQuestion } from '../../../../../shared/schemas/reviews.js';
import { ApiError } from '../../../api/client.js';
import { KeyFixForm } from '../../../components/key-fix/KeyFixForm.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { useSnackbar } from '../../../lib/snackbar.js';
import { useDecideAppeal } from '../api/decide-appeal.js';

type Props = { ids: PhaseIds; entry: ContestationEntry; question: ReviewQuestion };

/**
 * A committee appeal (an item scored from the key): the exam's admins either correct the key —
 * first a preview of whose scores would change, then the rescoring — or close the appeal with
 * a decision that keeps the score.
 */
export function CommitteePanel({ ids, entry, question }: Props) {
  const { t } = useTranslation();
  return (
    <Stack spacing={2} divider={<Divider flexItem />}>
      {question.itemType !== 'open' && <KeyFixForm ids={ids} question={question} />}
      <Decision ids={ids} entry={entry} />
      {question.itemType === 'open' && (
        <Typography variant="body2" color="text.secondary">
          {t('reviews.committee.openItem')}
        </Typography>
      )}
    </Stack>
  );
}

function Decision({ ids, entry }: { ids: PhaseIds; entry: ContestationEntry }) {
  const { t } = useTranslation();
  const { notify } = useSnackbar();
  const decide = useDecideAppeal(ids, entry._id);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const handleDecide = async () => {
    const text = note.trim();
    if (text.length < 3) {
      setError(text ? 'error_too_short' : 'error_required');
      return;
    }
    setError(null);
    try {
      await decide.mutateAsync({ note: text, version: entry.version });
      notify('reviews.committee.decided', 'success');
    } catch (e) {
      const code = e instanceof ApiError ? e.code : 'GENERAL_ERROR';
      notify(
        code === 'REVIEW_CHANGED' || code === 'REVIEW_CLOSED'
          ? `errors.${code}`
          : 'msg_failed_add_mark',
        'error',
      );
    }
  };
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {t('reviews.committee.decisionTitle')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('reviews.committee.decisionHint')}
      </Typography>
      <TextField
        label={t('reviews.committee.decisionNote')}
        value={note}
        onChange={(e) => setNote(e.target.value)}
        multiline
        minRows={2}
        size="small"
        error={error !== null}
        helperText={error ? t(error) : undefined}
      />
      <Box>
        <Button
          variant="contained"
          startIcon={<Gavel />}
          disabled={decide.isPending}
          onClick={() => void handleDecide()}
        >
          {t('reviews.committee.decide')}
        </Button>
      </Box>
    </Stack>
  );
}
