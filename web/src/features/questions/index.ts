// The questions feature's public face: the pages the router mounts.
export { QuestionMediatorPage, QuestionReviewersPage } from './QuestionMarkersPage.js';
export { QuestionsPage } from './QuestionsPage.js';
