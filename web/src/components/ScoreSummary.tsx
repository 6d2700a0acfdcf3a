import { Box, Typography, type TypographyProps } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ResultState } from '../../../shared/schemas/results.js';
import { formatScore, readScore } from '../lib/scores.js';

type Props = {
  score: number;
  totalScore: number;
  scoreState: ResultState | null;
  awaitingItems: number;
  /** The score's size: large on the end screen, smaller on a card of My tests. */
  variant: TypographyProps['variant'];
  /** Names the score for tests and assistive technology (`player-score`, `my-test-score`). */
  testId: string;
  align?: 'left' | 'center';
};

/**
 * A known score as the student reads it: "Score: 60 of 100" when final, otherwise "Provisional
 * score" with why — questions still waiting for marking, or appeals still ahead.
 */
export function ScoreSummary(props: Props) {
  const { t, i18n } = useTranslation();
  const reading = readScore(props);
  const values = {
    score: formatScore(props.score, i18n.language),
    total: formatScore(props.totalScore, i18n.language),
  };
  return (
    <Box sx={{ textAlign: props.align ?? 'left' }}>
      <Typography
        variant={props.variant}
        component="p"
        sx={{ fontWeight: 700 }}
        data-testid={props.testId}
        data-score-state={props.scoreState ?? 'final'}
      >
        {t(reading.scoreKey, values)}
      </Typography>
      {reading.note && (
        <Typography
          variant="body2"
          color={reading.note.key === 'scores.awaiting' ? 'warning.dark' : 'text.secondary'}
          sx={{ mt: 0.5, fontWeight: 500 }}
          data-testid={`${props.testId}-note`}
        >
          {reading.note.key === 'scores.awaiting'
            ? t(reading.note.key, { count: reading.note.count })
            : t(reading.note.key)}
        </Typography>
      )}
    </Box>
  );
}
