import Assessment from '@mui/icons-material/Assessment';
import CloudUpload from '@mui/icons-material/CloudUpload';
import EmojiEvents from '@mui/icons-material/EmojiEvents';
import NetworkCheck from '@mui/icons-material/NetworkCheck';
import PlayArrow from '@mui/icons-material/PlayArrow';
import {
  Alert,
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
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { MyTest, MyTestState } from '../../../../shared/schemas/player.js';
import { QueryStatus } from '../../components/QueryStatus.js';
import { ScoreSummary } from '../../components/ScoreSummary.js';
import { useOfflineApp } from '../../lib/offline-app.js';
import { useMyTests } from './api/get-my-tests.js';
import { formatWindow, testTitle } from './lib/title.js';

const STATE_COLOR: Record<MyTestState, ChipProps['color']> = {
  upcoming: 'default',
  open: 'info',
  in_progress: 'warning',
  finished: 'default',
  result_available: 'success',
  missed: 'error',
};

/** A result not yet final says so on the card's chip: being marked, or provisional. */
function stateChip(test: MyTest): { key: string; color: ChipProps['color'] } {
  if (test.state === 'result_available' && test.scoreState === 'awaiting_marking') {
    return { key: 'myTests.state.marking', color: 'warning' };
  }
  if (test.state === 'result_available' && test.scoreState === 'provisional') {
    return { key: 'myTests.state.provisional', color: 'info' };
  }
  return { key: `myTests.state.${test.state}`, color: STATE_COLOR[test.state] };
}

/** An online test still to take: the connection check is worth running before it. */
const isAhead = (test: MyTest) =>
  test.type !== 'hybrid' && (test.state === 'upcoming' || test.state === 'open');

/**
 * /tests: the student's tests with their state, the way in, and the score once known. Opening
 * it saves the exam app on the device (lib/offline-app.ts), ready for the test.
 */
export function MyTestsPage() {
  const { t } = useTranslation();
  const tests = useMyTests();
  useOfflineApp();
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Box>
        <Typography variant="h5" component="h1">
          {t('myTests.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('myTests.intro')}
        </Typography>
        <Button component={Link} to="/diploma" startIcon={<EmojiEvents />} sx={{ mt: 1 }}>
          {t('diplomas.openFromTests')}
        </Button>
      </Box>
      <QueryStatus query={tests} empty={t('myTests.none')} />
      {tests.data?.some(isAhead) && (
        <Alert
          severity="info"
          icon={<NetworkCheck />}
          data-testid="suggest-connection-check"
          action={
            <Button component={Link} to="/verificare-conexiune" color="inherit" size="small">
              {t('myTests.check.link')}
            </Button>
          }
        >
          {t('myTests.check.text')}
        </Alert>
      )}
      <Grid container spacing={2}>
        {tests.data?.map((test) => (
          <Grid key={test.testId} size={{ xs: 12, md: 6 }}>
            <MyTestCard test={test} />
          </Grid>
        ))}
      </Grid>
    </Box>
  );
}

function MyTestCard({ test }: { test: MyTest }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const isHybrid = test.type === 'hybrid';
  const title = testTitle(test.subject, test.grades, t);
  const chip = stateChip(test);
  return (
    <Card
      component="article"
      aria-label={`${test.name} — ${title}`}
      sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
    >
      <CardContent sx={{ flex: 1 }}>
        <Typography
          variant="overline"
          color="text.secondary"
          sx={{ lineHeight: 1.5, display: 'block' }}
        >
          {[test.examName, test.editionName, test.phaseName].join(' · ')}
        </Typography>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap' }}>
          <Typography variant="h6" component="h2" sx={{ flex: 1, minWidth: 180 }}>
            {test.name}
          </Typography>
          <Chip size="small" color={chip.color} label={t(chip.key)} data-testid="my-test-state" />
        </Box>
        <Typography color="text.secondary">
          {title} · {t(isHybrid ? 'myTests.hybrid' : 'myTests.online')}
        </Typography>
        <Typography variant="body2" sx={{ mt: 1 }}>
          {t('myTests.window', { range: formatWindow(test.startDate, test.endDate, lang) })}
        </Typography>
        {!isHybrid && (
          <Typography variant="body2">
            {t('player.terms.minutes', { count: test.duration })}
          </Typography>
        )}
        {test.state === 'result_available' && test.score !== null && (
          <Box sx={{ mt: 1.5 }}>
            <ScoreSummary
              score={test.score}
              totalScore={test.totalScore}
              scoreState={test.scoreState}
              awaitingItems={test.awaitingItems}
              variant="h5"
              testId="my-test-score"
            />
          </Box>
        )}
        {test.state === 'finished' && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
            {t(isHybrid ? 'myTests.awaitingMarks' : 'myTests.awaitingResult')}
          </Typography>
        )}
        {test.state === 'in_progress' && test.timer !== null && (
          <Typography variant="body2" color="warning.dark" sx={{ mt: 1.5, fontWeight: 500 }}>
            {t('myTests.timeLeft', { count: Math.ceil(test.timer / 60) })}
          </Typography>
        )}
      </CardContent>
      <MyTestAction test={test} />
    </Card>
  );
}

function MyTestAction({ test }: { test: MyTest }) {
  const { t } = useTranslation();
  if (test.state === 'result_available') {
    // The score item by item, and the way to appeal one (SPEC.md §2 /teste/{testId}/rezultat).
    return (
      <CardActions sx={{ px: 2, pb: 2 }}>
        <Button
          component={Link}
          to={`/teste/${encodeURIComponent(test.testId)}/rezultat`}
          variant="outlined"
          startIcon={<Assessment />}
          aria-label={t('myTests.resultOf', { name: test.name })}
        >
          {t('myTests.result')}
        </Button>
      </CardActions>
    );
  }
  const to = `/test/${encodeURIComponent(test.testId)}`;
  let label: string | undefined;
  if (test.type === 'hybrid') {
    if (test.state === 'open') label = t('myTests.upload');
  } else if (test.state === 'open') label = t('myTests.start');
  else if (test.state === 'in_progress') label = t('myTests.continue');
  if (!label) return null;
  return (
    <CardActions sx={{ px: 2, pb: 2 }}>
      <Button
        component={Link}
        to={to}
        variant="contained"
        startIcon={test.type === 'hybrid' ? <CloudUpload /> : <PlayArrow />}
      >
        {label}
      </Button>
    </CardActions>
  );
}
