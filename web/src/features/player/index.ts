// The player feature's public face: the pages the router mounts.
export { ConnectionCheckPage } from './connection/ConnectionCheckPage.js';
export { ExamDayPage } from './ExamDayPage.js';
export { MyTestsPage } from './MyTestsPage.js';
export { TestPlayerPage } from './TestPlayerPage.js';
