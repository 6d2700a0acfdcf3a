// The uploads feature's public face: the pages the router mounts.
export { PaperExamPage } from './PaperExamPage.js';
export { StudentAnswersPage } from './StudentAnswersPage.js';
export { TestStudentsPage } from './TestStudentsPage.js';
