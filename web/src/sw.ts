// The exam app's service worker (built by vite-plugin-pwa with Workbox, web/vite.config.ts).
// It keeps the student's path on the device — the app shell, sign-in, My tests, the connection
// check, the player, the statement renderer with KaTeX, the fonts and both languages — so that
// on exam day only the API travels. It never answers an API call: answers must reach the
// server or the player's own queue (features/player/lib/answer-queue.ts), never a cache.
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

type Manifest = Array<{ url: string; revision: string | null }>;
type MessageFromPage = {
  data: unknown;
  ports: readonly MessagePort[];
  waitUntil(promise: Promise<unknown>): void;
};

/** The parts of the worker's global scope used here (the web app's types are the window's). */
/** The install event, with the static routing API where the browser has it (Chromium). */
type InstallEvent = {
  addRoutes?: (rules: { condition: { urlPattern: unknown }; source: 'network' }) => Promise<void>;
  waitUntil(promise: Promise<unknown>): void;
};

declare const self: {
  __WB_MANIFEST: Manifest;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'message', listener: (event: MessageFromPage) => void): void;
  addEventListener(type: 'install', listener: (event: InstallEvent) => void): void;
};
declare const URLPattern: new (init: { pathname: string }) => unknown;

// API calls go straight to the network, not through this worker, where the browser allows it:
// exam day's answers skip a hop, and a long-lived call (a running attempt's event stream) is
// never an event of this worker that a new release's activation would have to wait for.
self.addEventListener('install', (event) => {
  if (event.addRoutes && typeof URLPattern === 'function') {
    event.waitUntil(
      event
        .addRoutes({
          condition: { urlPattern: new URLPattern({ pathname: '/api/*' }) },
          source: 'network',
        })
        .catch(() => undefined),
    );
  }
});

const manifest = self.__WB_MANIFEST;
precacheAndRoute(manifest);
// A new release's worker removes the previous release's copy only once it is active, and it
// becomes active only when the page lets it (lib/offline-app.ts): until then the previous
// copy keeps serving the lazy chunks of the release a running attempt was loaded from.
cleanupOutdatedCaches();

// Every page of the app is index.html; API calls and downloads are left to the network.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [/^\/api\//] }),
);

self.addEventListener('message', (event) => {
  const message = event.data as { type?: string } | undefined;
  // No skipWaiting of its own: a release waits until no attempt is open on the device.
  if (message?.type === 'SKIP_WAITING') event.waitUntil(self.skipWaiting());
  // How many files the device keeps, for the connection check's progress.
  if (message?.type === 'PRECACHE_SIZE') event.ports[0]?.postMessage(manifest.length);
});
