import CheckCircle from '@mui/icons-material/CheckCircle';
import { Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PlayerState } from '../../../../../shared/schemas/player.js';
import { formatScore } from '../lib/title.js';
import { BackToMyTests } from './BackToMyTests.js';

/** The attempt is over (SPEC.md §3 finalized): the score of an online test, at once. */
export function FinishedView({ result, totalScore }: { result: PlayerState; totalScore: number }) {
  const { t, i18n } = useTranslation();
  const byTime = result.finishedBy === 'sweeper';
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
        {t(byTime ? 'player.finished.byTime' : 'player.finished.text')}
      </Typography>
      {result.score !== null && (
        <Typography
          variant="h4"
          component="p"
          sx={{ mt: 3, fontWeight: 700 }}
          data-testid="player-score"
        >
          {t('player.finished.score', {
            score: formatScore(result.score, i18n.language),
            total: formatScore(totalScore, i18n.language),
          })}
        </Typography>
      )}
      <Stack sx={{ mt: 4, alignItems: 'center' }}>
        <BackToMyTests />
      </Stack>
    </Paper>
  );
}
