type Waiting<P, R> = {
  params: P;
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
};

export type GroupCommitOptions<P, R> = {
  /** Does the work of many requests at once (one statement, one commit); one result each. */
  runGroup: (group: readonly P[]) => Promise<R[]>;
  /** Does one request's work alone: after a group failed, each of it goes again this way. */
  runAlone: (params: P) => Promise<R>;
  /** Requests with the same key never share a group (the later one waits for the next). */
  keyOf: (params: P) => string;
  /** Groups running at once. */
  inFlight: number;
  /** Most requests in one group. */
  maxGroup: number;
  /** Told each group's size and whether it went as one (tests, metrics). */
  onGroup?: (size: number, together: boolean) => void;
};

/**
 * Groups requests as a database's group commit does: at most `inFlight` groups run at once;
 * requests that arrive meanwhile wait and go together in the next group (at most `maxGroup`).
 * At a quiet moment a request goes alone and at once; under a burst the fixed cost of a round
 * trip, a plan and a commit is paid once per group instead of once per request, and groups grow
 * by themselves as long as the burst lasts. Each request is resolved only after its group has
 * finished, with its own result, exactly as if it had run alone; a group that fails (one bad
 * request, a deadlock) is run again one request at a time, so one cannot fail the others.
 */
export function groupCommit<P, R>(options: GroupCommitOptions<P, R>): (params: P) => Promise<R> {
  const { runGroup, runAlone, keyOf, inFlight, maxGroup, onGroup } = options;
  let waiting: Waiting<P, R>[] = [];
  let running = 0;

  async function alone(request: Waiting<P, R>) {
    try {
      request.resolve(await runAlone(request.params));
    } catch (err) {
      request.reject(err);
    }
  }

  async function run(group: Waiting<P, R>[]) {
    if (group.length === 1) {
      onGroup?.(1, true);
      return alone(group[0] as Waiting<P, R>);
    }
    let results: R[];
    try {
      results = await runGroup(group.map((request) => request.params));
    } catch {
      onGroup?.(group.length, false);
      for (const request of group) await alone(request);
      return;
    }
    onGroup?.(group.length, true);
    group.forEach((request, i) => {
      request.resolve(results[i] as R);
    });
  }

  /** The next group: first come first, one request per key. */
  function takeGroup(): Waiting<P, R>[] {
    const group: Waiting<P, R>[] = [];
    const later: Waiting<P, R>[] = [];
    const keys = new Set<string>();
    for (const request of waiting) {
      const key = keyOf(request.params);
      if (group.length < maxGroup && !keys.has(key)) {
        keys.add(key);
        group.push(request);
      } else {
        later.push(request);
      }
    }
    waiting = later;
    return group;
  }

  function pump() {
    while (running < inFlight && waiting.length > 0) {
      const group = takeGroup();
      running += 1;
      void run(group).finally(() => {
        running -= 1;
        pump();
      });
    }
  }

  return (params: P) =>
    new Promise<R>((resolve, reject) => {
      waiting.push({ params, resolve, reject });
      pump();
    });
}
