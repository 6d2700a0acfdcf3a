import CheckCircle from '@mui/icons-material/CheckCircle';
import { Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PlayerState } from '../../../../../shared/schemas/player.js';
import { ScoreSummary } from '../../../components/ScoreSummary.js';
import { finishedTextKey } from '../lib/result.js';
import { BackToMyTests } from './BackToMyTests.js';

/**
 * The attempt is over (SPEC.md §3 finalized): how it ended (the student, the time, the phase
 * closing) and the points known at once, provisional while questions wait for marking.
 */
export function FinishedView({ result, totalScore }: { result: PlayerState; totalScore: number }) {
  const { t } = useTranslation();
  return (
    <Paper
      component="section"
      sx={{ p: { xs: 3, sm: 5 }, maxWidth: 560, mx: 'auto', textAlign: 'center' }}
    >
      <CheckCircle color="success" sx={{ fontSize: 56 }} />
      <Typography variant="h5" component="h1" sx={{ mt: 1, fontWeight: 700 }}>
        {t('player.finished.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1 }}>
        {t(finishedTextKey(result.finishedBy, result.scoreState))}
      </Typography>
      {result.score !== null && (
        <Stack sx={{ mt: 3 }}>
          <ScoreSummary
            score={result.score}
            totalScore={totalScore}
            scoreState={result.scoreState}
            awaitingItems={result.awaitingItems}
            variant="h4"
            testId="player-score"
            align="center"
          />
        </Stack>
      )}
      <Stack sx={{ mt: 4, alignItems: 'center' }}>
        <BackToMyTests />
      </Stack>
    </Paper>
  );
}
