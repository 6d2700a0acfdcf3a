import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, type TransferListItem, Worker } from 'node:worker_threads';

/**
 * Work that would hold the server's event loop for seconds (drawing a thousand PDFs) done on
 * a thread of its own: requests keep being answered on the main loop while another core does
 * the work. A runner owns one thread, started on the first task and ended after `idleMs`
 * without one (or on `close`); tasks run one at a time, in the order given. A task reports
 * progress as it goes and answers one result; an error thrown on the thread fails that task
 * (`ThreadTaskError`, with the error's `code` when it had one), and a thread that dies fails
 * the task in progress and is replaced on the next one.
 *
 * The thread's entry is a module URL; a TypeScript entry is loaded through a small `.mjs`
 * file that imports it with tsx (see server/modules/diplomas/diploma-zip.thread.mjs), so the
 * thread starts the same way under `npm start`, the tests and the benchmarks.
 */
export type ThreadRunner<Task, Result, Progress> = {
  run(task: Task, onProgress?: (progress: Progress) => void): Promise<Result>;
  /** Ends the thread (failing a task still in progress); the next `run` starts another. */
  close(): Promise<void>;
};

/** A task that failed on its thread: the thrown error's message and code. */
export class ThreadTaskError extends Error {
  readonly code: string | undefined;
  constructor(message: string, code?: string) {
    super(message);
    this.name = 'ThreadTaskError';
    this.code = code;
  }
}

type ToThread<Task> = { id: number; task: Task };
type FromThread<Result, Progress> =
  | { id: number; kind: 'progress'; progress: Progress }
  | { id: number; kind: 'result'; result: Result }
  | { id: number; kind: 'error'; message: string; code?: string };

type Pending<Result, Progress> = {
  id: number;
  resolve(result: Result): void;
  reject(error: Error): void;
  onProgress?: (progress: Progress) => void;
};

export function createThreadRunner<Task, Result, Progress = never>(options: {
  entry: URL;
  /** How long an idle thread is kept for the next task; default 60 s. */
  idleMs?: number;
}): ThreadRunner<Task, Result, Progress> {
  const idleMs = options.idleMs ?? 60_000;
  let worker: Worker | undefined;
  let current: Pending<Result, Progress> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 1;

  const fail = (error: Error) => {
    const task = current;
    current = undefined;
    task?.reject(error);
  };

  function thread(): Worker {
    if (worker) return worker;
    // No inherited flags: the entry loads what it needs itself (a parent's `--import` of a
    // loader, or a test runner's flags, have no business in the thread).
    const started = new Worker(options.entry, { execArgv: [] });
    started.on('message', (message: FromThread<Result, Progress>) => {
      const task = current;
      if (!task || message.id !== task.id) return;
      if (message.kind === 'progress') {
        task.onProgress?.(message.progress);
      } else if (message.kind === 'result') {
        current = undefined;
        task.resolve(message.result);
      } else {
        current = undefined;
        task.reject(new ThreadTaskError(message.message, message.code));
      }
    });
    started.on('error', (error) => fail(error));
    started.on('exit', (code) => {
      if (worker === started) worker = undefined;
      fail(new Error(`the worker thread stopped (exit code ${code})`));
    });
    worker = started;
    return started;
  }

  function runOne(task: Task, onProgress?: (progress: Progress) => void): Promise<Result> {
    clearTimeout(idleTimer);
    const target = thread();
    // Kept alive while it works; an idle thread never holds the process open.
    target.ref();
    const id = nextId;
    nextId += 1;
    return new Promise<Result>((resolve, reject) => {
      current = { id, resolve, reject, ...(onProgress ? { onProgress } : {}) };
      target.postMessage({ id, task } satisfies ToThread<Task>);
    }).finally(() => {
      if (worker !== target) return;
      target.unref();
      idleTimer = setTimeout(() => {
        if (worker === target && !current) {
          worker = undefined;
          void target.terminate();
        }
      }, idleMs);
      idleTimer.unref();
    });
  }

  return {
    run(task, onProgress) {
      const result = queue.then(() => runOne(task, onProgress));
      queue = result.catch(() => undefined);
      return result;
    },
    async close() {
      clearTimeout(idleTimer);
      const target = worker;
      worker = undefined;
      if (target) await target.terminate();
    },
  };
}

/**
 * The thread's side: answers each task of the runner with `handle`, which may report progress
 * and names the buffers to move (not copy) back with the result.
 */
export function serveThreadTasks<Task, Result, Progress = never>(
  handle: (
    task: Task,
    progress: (progress: Progress) => void,
  ) => Promise<{ result: Result; transfer?: TransferListItem[] }>,
): void {
  const port = parentPort;
  if (!port) throw new Error('serveThreadTasks runs on a worker thread');
  port.on('message', async ({ id, task }: ToThread<Task>) => {
    const send = (message: FromThread<Result, Progress>, transfer?: TransferListItem[]) =>
      port.postMessage(message, transfer);
    try {
      const { result, transfer } = await handle(task, (progress) =>
        send({ id, kind: 'progress', progress }),
      );
      send({ id, kind: 'result', result }, transfer);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      send({
        id,
        kind: 'error',
        message: error instanceof Error ? error.message : String(error),
        ...(typeof code === 'string' ? { code } : {}),
      });
    }
  });
}

/**
 * Lowers the calling thread's CPU priority (Linux: a thread's own nice value, found through
 * /proc/thread-self), so that when the machine is busy the event loops answering requests and
 * the database go first and the thread takes what is left. Elsewhere it changes nothing.
 */
export function lowerThreadPriority(nice = 10): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isSafeInteger(tid) && tid > 0) setPriority(tid, nice);
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}
