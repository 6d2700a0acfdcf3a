import Build from '@mui/icons-material/Build';
import Gavel from '@mui/icons-material/Gavel';
import Preview from '@mui/icons-material/Preview';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Divider,
  FormControlLabel,
  FormGroup,
  Radio,
  RadioGroup,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type {
  ContestationEntry,
  KeyFixInput,
  KeyFixPreview,
  ReviewQuestion,
} from '../../../../../shared/schemas/reviews.js';
import { ApiError } from '../../../api/client.js';
import type { PhaseIds } from '../../../components/phase/get-phase-context.js';
import { useSnackbar } from '../../../lib/snackbar.js';
import { useDecideAppeal } from '../api/decide-appeal.js';
import { useApplyKeyFix, usePreviewKeyFix } from '../api/fix-key.js';
import { formatMark } from '../mark-form.js';
import { optionLetter } from './format.js';

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
      {question.itemType !== 'open' && <KeyFix ids={ids} question={question} />}
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

function KeyFix({ ids, question }: { ids: PhaseIds; question: ReviewQuestion }) {
  const { t, i18n } = useTranslation();
  const { notify } = useSnackbar();
  const initial = question.itemCorrectAnswers;
  const [chosen, setChosen] = useState<number[]>(Array.isArray(initial) ? initial : []);
  const [value, setValue] = useState(typeof initial === 'string' ? initial : '');
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState<{ input: string; answer: KeyFixPreview } | null>(null);
  const previewCall = usePreviewKeyFix(ids, question.itemId);
  const apply = useApplyKeyFix(ids, question.itemId);
  const isNumeric = question.itemType === 'numeric';
  const input: KeyFixInput = {
    itemCorrectAnswers: isNumeric ? value.trim() : [...chosen].sort((a, b) => a - b),
    reason: reason.trim() || undefined,
  };
  const inputKey = JSON.stringify(input.itemCorrectAnswers);
  const isEmpty = isNumeric ? value.trim() === '' : chosen.length === 0;
  const isCurrent = preview?.input === inputKey;

  const handlePreview = async () => {
    try {
      setPreview({ input: inputKey, answer: await previewCall.mutateAsync(input) });
    } catch {
      notify('reviews.keyFix.previewFailed', 'error');
    }
  };
  const handleApply = async () => {
    try {
      const result = await apply.mutateAsync(input);
      notify('reviews.keyFix.applied', 'success', {
        items: result.changedItems,
        students: result.students,
        appeals: result.resolvedAppeals,
      });
      setPreview(null);
    } catch {
      notify('reviews.keyFix.failed', 'error');
    }
  };

  return (
    <Stack spacing={1}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {t('reviews.keyFix.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('reviews.keyFix.hint')}
      </Typography>
      {isNumeric ? (
        <TextField
          size="small"
          label={t('reviews.keyFix.value')}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          sx={{ maxWidth: 260 }}
        />
      ) : question.itemType === 'single' ? (
        <RadioGroup
          aria-label={t('reviews.keyFix.options')}
          value={chosen[0] ?? ''}
          onChange={(e) => setChosen([Number(e.target.value)])}
          row
        >
          {question.itemAnswers.map((_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: options are positional
            <FormControlLabel key={i} value={i} control={<Radio />} label={optionLetter(i)} />
          ))}
        </RadioGroup>
      ) : (
        <FormGroup row aria-label={t('reviews.keyFix.options')}>
          {question.itemAnswers.map((_, i) => (
            <FormControlLabel
              // biome-ignore lint/suspicious/noArrayIndexKey: options are positional
              key={i}
              control={
                <Checkbox
                  checked={chosen.includes(i)}
                  onChange={() =>
                    setChosen((c) => (c.includes(i) ? c.filter((x) => x !== i) : [...c, i]))
                  }
                />
              }
              label={optionLetter(i)}
            />
          ))}
        </FormGroup>
      )}
      <TextField
        size="small"
        label={t('reviews.keyFix.reason')}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        multiline
      />
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
        <Button
          variant="outlined"
          startIcon={<Preview />}
          disabled={isEmpty || previewCall.isPending}
          onClick={() => void handlePreview()}
        >
          {t('reviews.keyFix.preview')}
        </Button>
        <Button
          variant="contained"
          color="warning"
          startIcon={<Build />}
          disabled={!isCurrent || apply.isPending}
          onClick={() => void handleApply()}
        >
          {t('reviews.keyFix.apply')}
        </Button>
      </Box>
      {preview && isCurrent && (
        <Box>
          <Alert severity={preview.answer.changes.length ? 'warning' : 'info'} sx={{ mb: 1 }}>
            {t('reviews.keyFix.changes', { count: preview.answer.changes.length })}{' '}
            {preview.answer.pendingAppeals > 0 &&
              t('reviews.keyFix.pendingAppeals', { count: preview.answer.pendingAppeals })}
          </Alert>
          {preview.answer.changes.length > 0 && (
            <Table size="small" aria-label={t('reviews.keyFix.changesTable')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('reviews.keyFix.student')}</TableCell>
                  <TableCell align="right">{t('reviews.keyFix.oldScore')}</TableCell>
                  <TableCell align="right">{t('reviews.keyFix.newScore')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {preview.answer.changes.map((c) => (
                  <TableRow key={`${c.testId}-${c.studentId}`}>
                    <TableCell>
                      {[c.familyName, c.givenName].filter(Boolean).join(' ') || c.studentId}
                    </TableCell>
                    <TableCell align="right">{formatMark(c.oldScore, i18n.language)}</TableCell>
                    <TableCell align="right">{formatMark(c.newScore, i18n.language)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </Box>
      )}
    </Stack>
  );
}
