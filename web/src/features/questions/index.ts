// The questions feature's public face: the pages the router mounts.

export { QuestionsPage } from './QuestionsPage.js';
export { QuestionMediatorPage, QuestionReviewersPage } from './QuestionTeachersPage.js';
