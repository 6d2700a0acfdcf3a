import EmojiEvents from '@mui/icons-material/EmojiEvents';
import Leaderboard from '@mui/icons-material/Leaderboard';
import {
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  type ChipProps,
  Grid,
  Typography,
} from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { MyRanking } from '../../../../shared/schemas/rankings.js';
import type { ResultState } from '../../../../shared/schemas/results.js';
import { QueryStatus } from '../../components/QueryStatus.js';
import { formatTotal } from '../../lib/scores.js';
import { useMyRankings } from './api/get-my-rankings.js';
import { DecisionChip, PrizeChip } from './components/RankingChips.js';
import { publishedRankingPath } from './paths.js';

const STATE_COLOR: Record<ResultState, ChipProps['color']> = {
  awaiting_marking: 'warning',
  provisional: 'info',
  final: 'success',
};

type Props = {
  /**
   * What a card offers once its phase is closed (`diplomaAvailable`): the diploma download
   * lives in its own feature and the app passes it here.
   */
  renderDiploma?: (ranking: MyRanking) => ReactNode;
};

/** Under My tests: the student's own rank in every phase with a result (SPEC.md §1). */
export function MyRankings({ renderDiploma }: Props) {
  const { t } = useTranslation();
  const ranks = useMyRankings();
  return (
    <Box component="section" aria-labelledby="my-rankings-title" sx={{ display: 'grid', gap: 2 }}>
      <Box>
        <Typography variant="h5" component="h2" id="my-rankings-title">
          {t('rankings.mine.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('rankings.mine.intro')}
        </Typography>
      </Box>
      <QueryStatus query={ranks} empty={t('rankings.mine.none')} />
      <Grid container spacing={2}>
        {ranks.data?.map((r) => (
          <Grid key={r.phaseId} size={{ xs: 12, md: 6 }}>
            <RankCard ranking={r} diploma={renderDiploma?.(r)} />
          </Grid>
        ))}
      </Grid>
    </Box>
  );
}

function RankCard({ ranking: r, diploma }: { ranking: MyRanking; diploma: ReactNode }) {
  const { t, i18n } = useTranslation();
  const ids = { examId: r.examId, editionId: r.editionId, phaseId: r.phaseId };
  // Only closing the phase makes its prizes and decisions final.
  const provisional = r.phaseState !== 'closed';
  return (
    <Card
      component="article"
      aria-label={`${r.examName} — ${r.phaseName}`}
      data-testid="my-rank"
      sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
    >
      <CardContent sx={{ flex: 1 }}>
        <Typography
          variant="overline"
          color="text.secondary"
          sx={{ lineHeight: 1.5, display: 'block' }}
        >
          {[r.examName, r.editionName].join(' · ')}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
          <Typography variant="h6" component="h3" sx={{ flex: 1, minWidth: 160 }}>
            {r.phaseName}
          </Typography>
          <Chip
            size="small"
            color={STATE_COLOR[r.scoreState]}
            label={t(`rankings.state.${r.scoreState}`)}
          />
        </Box>
        <Typography
          variant="h5"
          component="p"
          sx={{ fontWeight: 700, mt: 1 }}
          data-testid="my-rank-place"
        >
          {t('rankings.mine.place', { rank: r.rank, of: r.rankedInGrade })}
        </Typography>
        <Typography color="text.secondary">
          {[
            r.grade === null ? null : t(`grades.${r.grade}`),
            t('rankings.mine.total', {
              count: r.total ?? 0,
              total: formatTotal(r.total, i18n.language),
            }),
          ]
            .filter(Boolean)
            .join(' · ')}
        </Typography>
        {(r.prize || r.status) && (
          <Box sx={{ display: 'flex', gap: 1, mt: 1.5, flexWrap: 'wrap', alignItems: 'center' }}>
            {r.prize && <EmojiEvents color="warning" fontSize="small" aria-hidden />}
            <PrizeChip prize={r.prize} provisional={provisional} />
            {r.status && <DecisionChip status={r.status} provisional={provisional} />}
          </Box>
        )}
        {(r.prize || r.status) && provisional && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {t('rankings.mine.provisionalAwards')}
          </Typography>
        )}
        {r.scoreState !== 'final' && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
            {t(`rankings.mine.note.${r.scoreState}`)}
          </Typography>
        )}
      </CardContent>
      {(r.publication !== 'none' || diploma) && (
        <CardActions sx={{ px: 2, pb: 2, flexWrap: 'wrap', gap: 1 }}>
          {r.publication !== 'none' && (
            <Button
              component={Link}
              to={publishedRankingPath(ids)}
              variant="outlined"
              startIcon={<Leaderboard />}
            >
              {t('rankings.mine.seeRanking')}
            </Button>
          )}
          {diploma}
        </CardActions>
      )}
    </Card>
  );
}
