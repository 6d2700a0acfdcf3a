// The rankings feature's public face: the pages the router mounts, and the student's ranks
// shown under My tests.
export { MyRankings } from './MyRankings.js';
export { PublishedRankingPage } from './PublishedRankingPage.js';
export { RankingPage } from './RankingPage.js';
export { RulesPage } from './RulesPage.js';
