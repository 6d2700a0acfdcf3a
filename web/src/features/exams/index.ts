// The exams feature's public face: the pages the router mounts.
export { EditionPage } from './EditionPage.js';
export { ExamDetailPage } from './ExamDetailPage.js';
export { ExamsPage } from './ExamsPage.js';
export { PhasePage } from './PhasePage.js';
export { SignUpPage } from './SignUpPage.js';
