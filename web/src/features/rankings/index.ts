// The rankings feature's public face: the pages the router mounts, and the student's ranks
// shown under My tests.
import { lazy } from 'react';
import { withStaffStrings } from '../../i18n/index.js';

export { MyRankings } from './MyRankings.js';

// A phase's published ranking, opened from My tests: its table is a chunk of its own, so that
// My tests and the player do not bring it.
export const PublishedRankingPage = lazy(() =>
  import('./PublishedRankingPage.js').then((m) => ({ default: m.PublishedRankingPage })),
);

// Staff screens: chunks of their own, so that My tests (which shows MyRankings) never brings them.
export const RankingPage = lazy(() =>
  withStaffStrings(import('./RankingPage.js')).then((m) => ({ default: m.RankingPage })),
);
export const RulesPage = lazy(() =>
  withStaffStrings(import('./RulesPage.js')).then((m) => ({ default: m.RulesPage })),
);
