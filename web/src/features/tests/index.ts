// The tests feature's public face: the pages the router mounts.
export { TestPaperPage } from './TestPaperPage.js';
export { TestsPage } from './TestsPage.js';
