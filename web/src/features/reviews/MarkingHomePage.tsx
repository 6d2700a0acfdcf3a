import Gavel from '@mui/icons-material/Gavel';
import RateReview from '@mui/icons-material/RateReview';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  Grid,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { MarkerPhase } from '../../../../shared/schemas/reviews.js';
import { useMyPhases } from './api/my-phases.js';
import { entryListPagePath } from './paths.js';

/**
 * `/de-corectat` (the menu's "To mark"): every phase where the teacher grades or mediates a
 * question, with what still waits for them there and the way to each list. A grading teacher
 * who is no one else in the competition comes in here; the phase page is the staff's.
 */
export function MarkingHomePage() {
  const { t } = useTranslation();
  const phases = useMyPhases();

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        {t('reviews.home.title')}
      </Typography>
      <Typography color="text.secondary">{t('reviews.home.intro')}</Typography>
      {phases.isPending && <LinearProgress aria-label={t('list.loading')} />}
      {phases.isError && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void phases.refetch()}>
              {t('list.retry')}
            </Button>
          }
        >
          {t('reviews.home.failed')}
        </Alert>
      )}
      {phases.data?.length === 0 && <Alert severity="info">{t('reviews.home.none')}</Alert>}
      <Grid container spacing={2}>
        {phases.data?.map((p) => (
          <Grid key={p.phaseId} size={{ xs: 12, md: 6 }}>
            <PhaseCard phase={p} />
          </Grid>
        ))}
      </Grid>
    </Stack>
  );
}

function PhaseCard({ phase }: { phase: MarkerPhase }) {
  const { t } = useTranslation();
  const ids = { examId: phase.examId, editionId: phase.editionId, phaseId: phase.phaseId };
  const { open } = phase;
  const waiting = open.reviews + open.mediations + open.appeals + open.appealMediations;
  const counts = [
    { key: 'reviews', n: open.reviews, to: entryListPagePath(ids, 'reviews') },
    {
      key: 'mediations',
      n: open.mediations,
      to: entryListPagePath(ids, 'reviews', 'NEEDS_MEDIATION_ITEMS'),
    },
    { key: 'appeals', n: open.appeals, to: entryListPagePath(ids, 'appeals') },
    {
      key: 'appealMediations',
      n: open.appealMediations,
      to: entryListPagePath(ids, 'appeals', 'NEEDS_MEDIATION_ITEMS'),
    },
  ] as const;
  const headingId = `marking-phase-${phase.phaseId}`;

  return (
    <Card
      variant="outlined"
      component="section"
      aria-labelledby={headingId}
      sx={{ height: '100%' }}
    >
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {phase.examName} · {phase.editionName}
        </Typography>
        <Typography id={headingId} variant="h6" component="h2">
          {phase.phaseName}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', my: 1 }}>
          <Chip size="small" variant="outlined" label={t(`reviews.home.type.${phase.phaseType}`)} />
          {phase.roles.map((r) => (
            <Chip key={r} size="small" color="primary" label={t(`reviews.home.role.${r}`)} />
          ))}
        </Box>
        {!phase.reviewStarted ? (
          <Typography color="text.secondary">{t('reviews.home.notStarted')}</Typography>
        ) : waiting === 0 ? (
          <Typography color="text.secondary">{t('reviews.home.nothingWaiting')}</Typography>
        ) : (
          <Box component="ul" sx={{ m: 0, pl: 0, listStyle: 'none', display: 'grid', gap: 0.5 }}>
            {counts
              .filter((c) => c.n > 0)
              .map((c) => (
                <li key={c.key}>
                  <Button component={Link} to={c.to} size="small" sx={{ textTransform: 'none' }}>
                    {t(`reviews.home.open.${c.key}`, { count: c.n })}
                  </Button>
                </li>
              ))}
          </Box>
        )}
      </CardContent>
      <CardActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button
          component={Link}
          to={entryListPagePath(ids, 'reviews')}
          startIcon={<RateReview />}
          variant="contained"
          disabled={!phase.reviewStarted}
        >
          {t('reviews.reviews.title')}
        </Button>
        <Button
          component={Link}
          to={entryListPagePath(ids, 'appeals')}
          startIcon={<Gavel />}
          disabled={!phase.reviewStarted}
        >
          {t('reviews.appeals.title')}
        </Button>
      </CardActions>
    </Card>
  );
}
