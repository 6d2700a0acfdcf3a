import { useEffect } from 'react';
import type { Workbox } from 'workbox-window';

/**
 * The exam app kept on the device by the service worker (src/sw.ts): registered when a student
 * opens My tests, the connection check or a test, so the app is there before exam day.
 *
 * The update rule: a new release's worker installs beside the running one and waits; it takes
 * over only when no attempt is open on this device (no tab holds ATTEMPT_LOCK, see
 * `useAttemptHold`). A running attempt thus keeps its release to the end, lazy chunks included
 * (the previous worker's copy serves them after the server has moved on), and a reload during
 * it brings the same release back.
 */

/** Held (shared) by every tab showing a running attempt; the update takes it exclusively. */
const ATTEMPT_LOCK = 'podium-attempt-open';
/** How often a waiting release asks whether the attempts on the device have ended. */
const RETRY_MS = 15_000;
/** How often the saving progress is read while the worker installs. */
const PROGRESS_MS = 250;

export type OfflineAppStatus = 'unsupported' | 'absent' | 'saved';
export type SaveProgress = { done: number; total: number | undefined };

let workbox: Workbox | undefined;
let registering: Promise<ServiceWorkerRegistration | undefined> | undefined;
let retryTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Service workers run only on https or on the machine itself; a school serving Podium on plain
 * HTTP inside its network gets the app from the server each time. A dev server has no worker.
 */
export const offlineAppSupported = () =>
  import.meta.env.PROD && 'serviceWorker' in navigator && window.isSecureContext;

/** Registers the worker once per page; later calls get the same registration. */
export function registerOfflineApp(): Promise<ServiceWorkerRegistration | undefined> {
  if (!offlineAppSupported()) return Promise.resolve(undefined);
  // Workbox's window part is fetched here, after the page shows: no screen waits for it.
  registering ??= import('workbox-window')
    .then(({ Workbox }) => {
      const registered = new Workbox('/sw.js', { scope: '/' });
      workbox = registered;
      registered.addEventListener('waiting', () => void activateWhenNoAttempt());
      // The page that let the new release take over loads it, as does every other open page.
      registered.addEventListener('controlling', (event) => {
        if (event.isUpdate) window.location.reload();
      });
      return registered.register();
    })
    .catch(() => undefined);
  return registering;
}

/** Registers the worker when a page that needs the app on the device is shown. */
export function useOfflineApp(): void {
  useEffect(() => {
    void registerOfflineApp();
  }, []);
}

/** Lets a waiting release take over once no tab on the device holds a running attempt. */
async function activateWhenNoAttempt(): Promise<void> {
  clearTimeout(retryTimer);
  const current = workbox;
  const registration = await registering;
  if (!current || !registration?.waiting) return;
  if (!('locks' in navigator)) {
    // Without Web Locks only this tab's attempt is known.
    if (localHolds === 0) current.messageSkipWaiting();
    retryTimer = setTimeout(activateWhenNoAttempt, RETRY_MS);
    return;
  }
  void navigator.locks.request(ATTEMPT_LOCK, { ifAvailable: true }, async (lock) => {
    if (lock) current.messageSkipWaiting();
    // Asked again until it has taken over (the page then reloads): a message to a worker
    // that the browser was stopping can be lost.
    retryTimer = setTimeout(activateWhenNoAttempt, RETRY_MS);
  });
}

let localHolds = 0;

/** Keeps a new release from taking over while the calling page (the test player) is shown. */
export function useAttemptHold(): void {
  useEffect(() => {
    localHolds += 1;
    let release = () => {};
    /** Settles once the browser has let go of this page's hold. */
    let released: Promise<unknown> = Promise.resolve();
    if ('locks' in navigator) {
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      released = navigator.locks.request(ATTEMPT_LOCK, { mode: 'shared' }, () => held);
    }
    return () => {
      localHolds -= 1;
      release();
      // A release that waited for this attempt may take over now: asked only once the lock is
      // free, or the question would find this page's own hold still there and wait a round.
      void released.then(() => {
        if (workbox) void activateWhenNoAttempt();
      });
    };
  }, []);
}

/** Whether this device keeps the exam app (an active worker has stored every file). */
export async function offlineAppStatus(): Promise<OfflineAppStatus> {
  if (!offlineAppSupported()) return 'unsupported';
  const registration = await navigator.serviceWorker.getRegistration('/');
  return registration?.active ? 'saved' : 'absent';
}

/** Files stored so far by the worker being installed (Workbox's precache). */
async function storedFiles(): Promise<number> {
  const names = await caches.keys();
  const name = names.find((n) => n.startsWith('workbox-precache-v2-'));
  return name ? (await (await caches.open(name)).keys()).length : 0;
}

function installedOrFailed(worker: ServiceWorker): Promise<boolean> {
  return new Promise((resolve) => {
    const settle = () => {
      if (worker.state === 'activated' || worker.state === 'installed') resolve(true);
      else if (worker.state === 'redundant') resolve(false);
    };
    worker.addEventListener('statechange', settle);
    settle();
  });
}

/**
 * Saves the exam app on the device: registers the worker and waits until it has stored every
 * file, reporting how many so far. Resolves to the status reached.
 */
export async function saveOfflineApp(
  onProgress: (progress: SaveProgress) => void,
): Promise<OfflineAppStatus> {
  const registration = await registerOfflineApp();
  if (!registration || !workbox) return offlineAppSupported() ? 'absent' : 'unsupported';
  if (registration.active) return 'saved';
  const worker = registration.installing ?? registration.waiting;
  if (!worker) return 'absent';
  const total = (await Promise.race([
    workbox.messageSW({ type: 'PRECACHE_SIZE' }),
    new Promise((resolve) => setTimeout(resolve, 2000)),
  ])) as number | undefined;
  const timer = setInterval(() => {
    void storedFiles().then((done) => onProgress({ done: Math.min(done, total ?? done), total }));
  }, PROGRESS_MS);
  try {
    const ok = await installedOrFailed(worker);
    if (ok && total !== undefined) onProgress({ done: total, total });
    return ok ? 'saved' : 'absent';
  } finally {
    clearInterval(timer);
  }
}

/** The release this page runs, when the build was given one (VITE_PODIUM_RELEASE). */
export const RELEASE: string | undefined = import.meta.env.VITE_PODIUM_RELEASE || undefined;
