import Build from '@mui/icons-material/Build';
import Preview from '@mui/icons-material/Preview';
import {
  Alert,
  Box,
  Button,
  Checkbox,
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
  KeyFixInput,
  KeyFixPreview,
  ReviewQuestion,
} from '../../../../shared/schemas/reviews.js';
import { formatScore } from '../../lib/scores.js';
import { useSnackbar } from '../../lib/snackbar.js';
import type { PhaseIds } from '../phase/get-phase-context.js';
import { useApplyKeyFix, usePreviewKeyFix } from './fix-key.js';

const optionLetter = (index: number) => String.fromCharCode(65 + index);

/** What the form needs of a question: its id, type, options and key. */
export type KeyFixQuestion = Pick<
  ReviewQuestion,
  'itemId' | 'itemType' | 'itemAnswers' | 'itemCorrectAnswers'
>;

/**
 * The answer key of an online question corrected by the exam's admins: first a preview of
 * whose scores would change, then the rescoring. Opened from a committee appeal on the item or
 * from the question in the test's preview (a running or finished test); `onApplied` lets the
 * caller read the key again.
 */
export function KeyFixForm({
  ids,
  question,
  onApplied,
}: {
  ids: PhaseIds;
  question: KeyFixQuestion;
  onApplied?: () => void;
}) {
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
      onApplied?.();
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
                    <TableCell align="right">
                      {c.oldScore === null ? '—' : formatScore(c.oldScore, i18n.language)}
                    </TableCell>
                    <TableCell align="right">{formatScore(c.newScore, i18n.language)}</TableCell>
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
