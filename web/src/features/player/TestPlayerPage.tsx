import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { Navigate, useParams } from 'react-router';
import { ApiError, getSession } from '../../api/client.js';
import { LoadingScreen } from '../../components/LoadingScreen.js';
import { mayEnter } from '../../lib/access.js';
import { useAuth, WHOAMI_KEY } from '../../lib/auth.js';
import { useAttemptHold, useOfflineApp } from '../../lib/offline-app.js';
import { useSnackbar } from '../../lib/snackbar.js';
import { LoadErrorDialog } from './components/PlayerDialogs.js';
import { PlayerScreen } from './components/PlayerScreen.js';
import { TermsStep } from './components/TermsStep.js';
import { HybridTest } from './hybrid/HybridTest.js';
import { attemptKeyOf, usePlayerLoader } from './use-player-loader.js';

const STUDENT = { roles: ['student'], registered: true, active: true } as const;

/**
 * /test/{testId} (toolbar only, SPEC.md §2). A student's page; also opened when the sign-in
 * check could not reach the server but this device holds the student's session, so a reload
 * during a network cut brings the test back instead of the sign-in page.
 */
export function TestPlayerPage() {
  const { testId = '' } = useParams();
  const { status, user } = useAuth();
  const queryClient = useQueryClient();
  /** The student let in last: a repeated sign-in check must not tear down a running test. */
  const admitted = useRef<string | undefined>(undefined);
  // A new release waits while this page is open (lib/offline-app.ts): from its first render,
  // before the attempt is even loaded, to the student's leaving it, the score read. A reload
  // during the attempt thus comes back to the same release, and nothing reloads the page.
  useAttemptHold();
  useOfflineApp();
  if (status === 'checking') {
    return admitted.current ? (
      <Player testId={testId} userId={admitted.current} />
    ) : (
      <LoadingScreen />
    );
  }
  const stored = getSession();
  const whoamiError = queryClient.getQueryState(WHOAMI_KEY)?.error;
  const isOfflineStudent =
    status === 'guest' &&
    stored !== null &&
    whoamiError instanceof ApiError &&
    whoamiError.status === 0;
  const userId = user
    ? mayEnter(user, STUDENT)
      ? user._id
      : undefined
    : isOfflineStudent
      ? stored?.userId
      : undefined;
  admitted.current = userId;
  if (!userId) return <Navigate to="/" replace />;
  return <Player testId={testId} userId={userId} />;
}

function Player({ testId, userId }: { testId: string; userId: string }) {
  const { notify } = useSnackbar();
  const queryClient = useQueryClient();
  // Back online after a reload without network: the sign-in check is repeated.
  const handleReachable = useCallback(() => {
    if (queryClient.getQueryState(WHOAMI_KEY)?.status === 'error') {
      void queryClient.refetchQueries({ queryKey: WHOAMI_KEY });
    }
  }, [queryClient]);
  const { load, start, retry } = usePlayerLoader(testId, userId, {
    onRejected: () => notify('message_question_answer_error', 'error'),
    onRecovered: () => notify('player.synced', 'success'),
    onReachable: handleReachable,
  });
  const attemptKey = attemptKeyOf(userId, testId);

  switch (load.kind) {
    case 'loading':
      return <LoadingScreen />;
    case 'terms':
      return <TermsStep test={load.test} starting={load.starting} onStart={() => void start()} />;
    case 'hybrid':
      return <HybridTest test={load.test} />;
    case 'running':
      return (
        <PlayerScreen
          key={load.session.snapshot.attemptId}
          session={load.session}
          attemptKey={attemptKey}
        />
      );
    case 'error':
      return <LoadErrorDialog code={load.code} test={load.test} onRetry={retry} />;
  }
}
