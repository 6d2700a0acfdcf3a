// The reviews feature's public face: the marking, appeal and result pages the router mounts,
// and the marking section of the phase page.
export { AppealListPage, ReviewListPage } from './EntryListPage.js';
export { AppealEntryPage, ReviewEntryPage } from './EntryPage.js';
export { MarkingHomePage } from './MarkingHomePage.js';
export { PhaseReviewPanel } from './PhaseReviewPanel.js';
export { ProgressPage } from './ProgressPage.js';
export { StudentResultPage } from './StudentResultPage.js';
