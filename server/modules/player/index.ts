// The test-player's public face: its routes and service for the composition root, the
// sweeper, the flush of the exam-day panel's counts, and the warm-up of exam day's statements
// on a new database connection.

export { playerPersonalData } from './personal-data.js';
export { playerRoutes } from './player.routes.js';
export { type PlayerService, playerService, warmPlayerConnection } from './player.service.js';
export { registerExamDayStats, registerSweeper } from './player.sweeper.js';
