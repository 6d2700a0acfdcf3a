// The reviews feature's public face: the marking, appeal and result pages the router mounts,
// the marking section of the phase page, and the answer-key correction a test's question offers.

export { KeyFixForm, type KeyFixQuestion } from './components/KeyFixForm.js';
export { AppealListPage, ReviewListPage } from './EntryListPage.js';
export { AppealEntryPage, ReviewEntryPage } from './EntryPage.js';
export { MarkingHomePage } from './MarkingHomePage.js';
export { PhaseReviewPanel } from './PhaseReviewPanel.js';
export { ProgressPage } from './ProgressPage.js';
export { StudentResultPage } from './StudentResultPage.js';
