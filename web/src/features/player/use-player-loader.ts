import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { MyTest, StartRequest } from '../../../../shared/schemas/player.js';
import { ApiError } from '../../api/client.js';
import { getMyTests, MY_TESTS_KEY } from './api/get-my-tests.js';
import { startTest } from './api/start-test.js';
import type { AnswerStore } from './lib/answer-store.js';
import { openAnswerStore } from './lib/idb.js';
import { clockSample } from './lib/server-clock.js';
import {
  createPlayerSession,
  isTransient,
  type PlayerSession,
  type SessionHooks,
} from './player-session.js';

/** Why the test cannot be opened (SPEC.md §8 test load errors, plus no network at all). */
export type LoadErrorCode =
  | 'TEST_NOT_ACTIVE'
  | 'TEST_ALREADY_REVIEWED'
  | 'NOT_FOUND'
  | 'GENERAL_ERROR'
  | 'OFFLINE';

export type PlayerLoad =
  | { kind: 'loading' }
  | { kind: 'terms'; test: MyTest; starting: boolean }
  | { kind: 'hybrid'; test: MyTest }
  | { kind: 'running'; session: PlayerSession }
  | { kind: 'error'; code: LoadErrorCode; test?: MyTest };

const loadErrorCode = (error: unknown): LoadErrorCode => {
  if (isTransient(error)) return 'OFFLINE';
  if (error instanceof ApiError) {
    if (error.code === 'TEST_NOT_ACTIVE' || error.code === 'TEST_ALREADY_REVIEWED')
      return error.code;
    if (error.status === 404) return 'NOT_FOUND';
  }
  return 'GENERAL_ERROR';
};

/** The key of an attempt on this device: a lab computer is shared by several students. */
export const attemptKeyOf = (userId: string, testId: string) => `${userId}:${testId}`;

/**
 * Opens /test/{testId}: finds the test among the student's, then shows the terms (not started),
 * resumes the attempt (in progress: the server's answers merged with this device's), or says
 * why not. Without network, an attempt this device has seen reopens from its stored copy.
 */
export function usePlayerLoader(testId: string, userId: string, hooks: SessionHooks) {
  const queryClient = useQueryClient();
  const [load, setLoad] = useState<PlayerLoad>({ kind: 'loading' });
  const storeRef = useRef<AnswerStore | undefined>(undefined);
  const sessionRef = useRef<PlayerSession | undefined>(undefined);
  const hooksRef = useRef(hooks);
  hooksRef.current = hooks;
  /** Bumped when the page opens another test or leaves: late answers of older loads are dropped. */
  const generation = useRef(0);

  const show = useCallback((next: PlayerLoad, mine: number) => {
    if (mine !== generation.current) {
      if (next.kind === 'running') next.session.dispose();
      return;
    }
    if (next.kind === 'running') {
      sessionRef.current?.dispose();
      sessionRef.current = next.session;
    }
    setLoad(next);
  }, []);

  const sessionHooks: SessionHooks = {
    onRejected: (itemId) => hooksRef.current.onRejected?.(itemId),
    onRecovered: () => hooksRef.current.onRecovered?.(),
    onReachable: () => hooksRef.current.onReachable?.(),
  };

  const fromDevice = async (store: AnswerStore, error: unknown, mine: number) => {
    const snapshot = isTransient(error)
      ? await store.readSnapshot().catch(() => undefined)
      : undefined;
    if (!snapshot) {
      show({ kind: 'error', code: loadErrorCode(error) }, mine);
      return;
    }
    const pending = await store.list().catch(() => []);
    const session = createPlayerSession(
      { snapshot, sample: undefined, store, pending },
      sessionHooks,
    );
    show({ kind: 'running', session }, mine);
    void session.checkState();
  };

  const begin = async (store: AnswerStore, body: StartRequest, mine: number, test?: MyTest) => {
    let started: Awaited<ReturnType<typeof startTest>>;
    try {
      started = await startTest(testId, body);
    } catch (error) {
      if (isTransient(error)) return fromDevice(store, error, mine);
      show({ kind: 'error', code: loadErrorCode(error), test }, mine);
      return;
    }
    const { data, sentMono, receivedMono } = started;
    const pending = await store.list().catch(() => []);
    const session = createPlayerSession(
      {
        snapshot: {
          testId,
          attemptId: data.attemptId,
          title: { subject: data.subject, grades: data.grade },
          items: data.shuffledStudentItems,
          deadline: data.deadline,
          offsetMs: 0,
        },
        sample: clockSample(data.serverNow, sentMono, receivedMono),
        store,
        pending,
      },
      sessionHooks,
    );
    void queryClient.invalidateQueries({ queryKey: MY_TESTS_KEY });
    show({ kind: 'running', session }, mine);
  };

  const open = async (mine: number) => {
    show({ kind: 'loading' }, mine);
    const store = storeRef.current ?? (await openAnswerStore(attemptKeyOf(userId, testId)));
    storeRef.current = store;
    let tests: MyTest[];
    try {
      tests = await queryClient.fetchQuery({
        queryKey: MY_TESTS_KEY,
        queryFn: getMyTests,
        staleTime: 0,
      });
    } catch (error) {
      return fromDevice(store, error, mine);
    }
    const test = tests.find((t) => t.testId === testId);
    if (!test) return show({ kind: 'error', code: 'NOT_FOUND' }, mine);
    if (test.type === 'hybrid') return show({ kind: 'hybrid', test }, mine);
    switch (test.state) {
      case 'open':
        return show({ kind: 'terms', test, starting: false }, mine);
      case 'in_progress':
        return begin(store, {}, mine, test);
      case 'finished':
      case 'result_available':
        // Nothing of this attempt can be sent any more.
        await store.clear().catch(() => undefined);
        return show({ kind: 'error', code: 'TEST_ALREADY_REVIEWED', test }, mine);
      default:
        return show({ kind: 'error', code: 'TEST_NOT_ACTIVE', test }, mine);
    }
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: opens once per test and student
  useEffect(() => {
    storeRef.current = undefined;
    generation.current += 1;
    void open(generation.current);
    return () => {
      generation.current += 1;
      sessionRef.current?.dispose();
      sessionRef.current = undefined;
    };
  }, [testId, userId]);

  /** The student accepted the terms: the attempt starts now. */
  const start = async () => {
    if (load.kind !== 'terms' || load.starting) return;
    const store = storeRef.current;
    if (!store) return;
    setLoad({ ...load, starting: true });
    await begin(store, { termsAccepted: true }, generation.current, load.test);
  };

  const retry = () => {
    generation.current += 1;
    void open(generation.current);
  };

  return { load, start, retry };
}
