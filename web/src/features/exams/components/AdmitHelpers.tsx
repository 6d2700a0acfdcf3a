import { Alert, Box, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client.js';
import { GradeSelect } from '../../../components/pickers/GradeSelect.js';
import { useAdmitThreshold } from '../api/admit-threshold.js';
import { useAdmitTop } from '../api/admit-top.js';
import type { PhaseIds } from '../api/keys.js';
import { type IncompleteResults, incompleteResultsText, isIncompleteResults } from '../results.js';
import { useReport } from '../use-report.js';

type Props = { ids: PhaseIds; grades: readonly number[] };

/**
 * Admission by rule (DESIGN.md "Qualification"): the best N of each grade, or everyone at or
 * above a score, optionally for one grade only. Ties at the cut are admitted by the server,
 * which refuses while totals are incomplete (RESULTS_INCOMPLETE): the panel then says how many
 * questions wait for marking and how many students still write.
 */
export function AdmitHelpers({ ids, grades }: Props) {
  const { t } = useTranslation();
  const report = useReport();
  const top = useAdmitTop(ids);
  const threshold = useAdmitThreshold(ids);
  const [grade, setGrade] = useState<number | ''>('');
  const [count, setCount] = useState('');
  const [minScore, setMinScore] = useState('');
  const countValue = Number(count);
  // Typed the way the language writes it: "25,5" in Romanian, "25.5" in English.
  const scoreValue = Number(minScore.trim().replace(',', '.'));
  const isCountValid = count !== '' && Number.isInteger(countValue) && countValue > 0;
  const isScoreValid = minScore !== '' && Number.isFinite(scoreValue) && scoreValue >= 0;
  const gradePart = grade === '' ? {} : { grade };

  // Totals not complete yet: the refusal stays on the panel with the server's numbers.
  const [incomplete, setIncomplete] = useState<IncompleteResults | 'unknown' | null>(null);

  const run = async (call: () => Promise<{ admittedCount: number }>) => {
    setIncomplete(null);
    try {
      const { admittedCount } = await call();
      report.success('exams.results.admittedByRule', { count: admittedCount });
    } catch (e) {
      if (e instanceof ApiError && e.code === 'RESULTS_INCOMPLETE') {
        setIncomplete(isIncompleteResults(e.details) ? e.details : 'unknown');
      } else {
        report.failure(e, 'exams.results.failed');
      }
    }
  };

  return (
    <Paper component="section" aria-label={t('exams.results.rulesTitle')} sx={{ p: 2 }}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {t('exams.results.rulesTitle')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('exams.results.rulesHint')}
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        <GradeSelect
          size="small"
          withAll
          grades={grades}
          label={t('exams.results.ruleGrade')}
          value={grade}
          onChange={setGrade}
          sx={{ minWidth: 200 }}
        />
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
          <TextField
            size="small"
            type="number"
            label={t('exams.results.topCount')}
            value={count}
            onChange={(e) => setCount(e.target.value)}
            slotProps={{ htmlInput: { min: 1, step: 1 } }}
            sx={{ width: 140 }}
          />
          <Button
            variant="outlined"
            disabled={!isCountValid || top.isPending}
            onClick={() => void run(() => top.mutateAsync({ count: countValue, ...gradePart }))}
          >
            {t('exams.results.admitTop')}
          </Button>
        </Box>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
          <TextField
            size="small"
            label={t('exams.results.minScore')}
            value={minScore}
            onChange={(e) => setMinScore(e.target.value)}
            slotProps={{ htmlInput: { inputMode: 'decimal', maxLength: 12 } }}
            sx={{ width: 140 }}
          />
          <Button
            variant="outlined"
            disabled={!isScoreValid || threshold.isPending}
            onClick={() =>
              void run(() => threshold.mutateAsync({ minScore: scoreValue, ...gradePart }))
            }
          >
            {t('exams.results.admitThreshold')}
          </Button>
        </Box>
      </Stack>
      {incomplete && (
        <Alert severity="warning" sx={{ mt: 2 }} onClose={() => setIncomplete(null)}>
          {incomplete === 'unknown'
            ? t('errors.RESULTS_INCOMPLETE')
            : incompleteResultsText(incomplete, t)}
        </Alert>
      )}
    </Paper>
  );
}
