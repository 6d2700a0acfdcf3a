import { defineConfig } from 'vitest/config';

// Three projects: `unit` (no server), `api` (the server through app.inject on a real
// database: PostgreSQL when DATABASE_URL is set, else PGlite), `e2e` (Chromium journeys).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'server/**/*.test.ts',
            'shared/**/*.test.ts',
            'web/src/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          exclude: ['**/*.api.test.ts', '**/node_modules/**'],
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['server/**/*.api.test.ts'],
          // The files share a worker's loaded modules instead of loading the whole server again
          // for each (180 s of the 580 s these files took on 2 cores; 351 s together). They
          // mock nothing, change no environment and keep their state in their own database
          // and app (server/test/app.ts), so none can see another's.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          // A failed browser test leaves a picture of each open page (e2e/failure-shots.ts).
          setupFiles: ['e2e/failure-shots.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          // A page that says what is expected answers at once; on a loaded machine (two files
          // at a time, each with a server and a browser) it may take seconds, not the 1 s
          // expect.poll waits by default (a table of a test's students once missed it in CI).
          expect: { poll: { timeout: 15_000 } },
          // Two files at once: most of a browser journey is waiting (timers, polls, a minute's
          // network cut), so a second file fills it; on 2 cores this took the browser tests
          // from 636 s to 488 s, all passing. More would starve the timed player journeys.
          maxWorkers: 2,
          // A project with its own worker count runs as its own group: after unit and api.
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
