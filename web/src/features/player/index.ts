// The player feature's public face: the pages the router mounts.
import { lazy } from 'react';
import { withStaffStrings } from '../../i18n/index.js';

export { ConnectionCheckPage } from './connection/ConnectionCheckPage.js';

// The staff's exam-day panel: a chunk of its own, so that a student's player never brings it.
export const ExamDayPage = lazy(() =>
  withStaffStrings(import('./ExamDayPage.js')).then((m) => ({ default: m.ExamDayPage })),
);
export { MyTestsPage } from './MyTestsPage.js';
export { TestPlayerPage } from './TestPlayerPage.js';
