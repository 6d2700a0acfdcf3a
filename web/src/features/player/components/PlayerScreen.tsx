import Flag from '@mui/icons-material/Flag';
import { Alert, Box, Button, Paper, Typography, useMediaQuery, useTheme } from '@mui/material';
import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { saveStatus } from '../lib/answer-queue.js';
import { isAnswered } from '../lib/restore.js';
import { testTitle } from '../lib/title.js';
import type { PlayerSession } from '../player-session.js';
import { FinishedView } from './FinishedView.js';
import { OfflineBanner } from './OfflineBanner.js';
import { EndedDialog, FinishDialog, TimeUpDialog } from './PlayerDialogs.js';
import { QuestionCard } from './QuestionCard.js';
import { type NavEntry, NavLegend, QuestionNav } from './QuestionNav.js';
import { TimerDisplay } from './TimerDisplay.js';

type Props = { session: PlayerSession; attemptKey: string };

/** The running test: title and server timer, the questions, their saved state, finishing. */
export function PlayerScreen({ session, attemptKey }: Props) {
  const { t } = useTranslation();
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('md'));
  const state = useSyncExternalStore(session.subscribe, session.getState);
  const queue = useSyncExternalStore(session.queue.subscribe, session.queue.getState);
  const [current, setCurrent] = useState(0);
  const [isFinishOpen, setFinishOpen] = useState(false);
  const [finishError, setFinishError] = useState<'unsent' | 'failed'>();

  const { snapshot } = session;
  const items = snapshot.items;
  const totalScore = items.reduce((sum, i) => sum + i.score, 0);

  if (state.phase === 'finished' && state.result) {
    return <FinishedView result={state.result} totalScore={totalScore} />;
  }

  const offline = queue.offline || state.unreachable;
  const canAnswer = state.phase === 'running' || state.phase === 'timeUp';
  const entries: NavEntry[] = items.map((item) => {
    const entry = queue.entries.get(item.itemId);
    return {
      itemId: item.itemId,
      position: item.position,
      answered: isAnswered(entry),
      status: saveStatus(entry, offline),
    };
  });
  const unanswered = entries.filter((e) => !e.answered).map((e) => e.position);
  const index = Math.min(current, items.length - 1);
  const item = items[index];
  const title = testTitle(snapshot.title.subject, snapshot.title.grades, t);

  const move = (next: number) => {
    setCurrent(next);
    window.scrollTo({ top: 0 });
  };
  const finish = async () => {
    setFinishError(undefined);
    const outcome = await session.finish();
    if (outcome === 'finished') setFinishOpen(false);
    else setFinishError(outcome);
  };

  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto', display: 'grid', gap: 2 }}>
      <Paper
        component="header"
        elevation={2}
        sx={{
          position: 'sticky',
          top: { xs: 56, sm: 64 },
          zIndex: theme.zIndex.appBar - 1,
          px: { xs: 1.5, sm: 2.5 },
          py: { xs: 1, sm: 1.5 },
          display: 'flex',
          alignItems: 'center',
          flexWrap: 'wrap',
          gap: { xs: 1, sm: 2 },
        }}
      >
        <Box sx={{ flex: 1, minWidth: { xs: '100%', sm: 0 } }}>
          <Typography
            variant="h5"
            component="h1"
            sx={{ fontWeight: 700, fontSize: { xs: '1.15rem', sm: '1.5rem' } }}
          >
            {title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('player.progress', {
              answered: items.length - unanswered.length,
              total: items.length,
            })}
          </Typography>
        </Box>
        <TimerDisplay deadlineMs={state.deadlineMs} serverNow={session.serverNow} />
        <Button
          variant="contained"
          startIcon={<Flag />}
          onClick={() => {
            setFinishError(undefined);
            setFinishOpen(true);
          }}
          disabled={!canAnswer}
          sx={{ ml: { xs: 'auto', sm: 0 } }}
        >
          {t('player.finish.button')}
        </Button>
      </Paper>

      {offline && <OfflineBanner durable={session.isDurable} pendingCount={queue.pendingCount} />}
      {!offline && !session.isDurable && <Alert severity="info">{t('player.volatile')}</Alert>}

      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', md: '240px 1fr' },
          alignItems: 'start',
        }}
      >
        {isPhone ? (
          <QuestionNav entries={entries} current={index} onSelect={move} row />
        ) : (
          <Paper sx={{ p: 2, position: 'sticky', top: 160 }}>
            <Typography variant="subtitle2" component="h2" sx={{ mb: 1.5 }}>
              {t('player.nav.label')}
            </Typography>
            <QuestionNav entries={entries} current={index} onSelect={move} />
            <NavLegend />
          </Paper>
        )}
        {item && (
          <QuestionCard
            item={item}
            index={index}
            total={items.length}
            answer={queue.entries.get(item.itemId)?.submittedAnswer}
            status={entries[index]?.status ?? 'none'}
            refusal={queue.entries.get(item.itemId)?.refusal}
            testId={session.testId}
            attemptId={snapshot.attemptId}
            attemptKey={attemptKey}
            disabled={!canAnswer}
            onAnswer={(value) => session.answer(item.itemId, value)}
            onMove={move}
          />
        )}
      </Box>

      <FinishDialog
        open={isFinishOpen}
        total={items.length}
        unanswered={unanswered}
        busy={state.phase === 'finishing'}
        error={finishError}
        onConfirm={() => void finish()}
        onClose={() => setFinishOpen(false)}
      />
      {state.phase === 'timeUp' && (
        <TimeUpDialog pendingCount={queue.pendingCount} offline={offline} />
      )}
      {state.phase === 'ended' && <EndedDialog code={state.endedCode} />}
    </Box>
  );
}
