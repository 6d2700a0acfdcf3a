// The test-review module's public face: its routes and service for the composition root, which
// also hands exam-mgmt the service's `beginReview` (the start of a phase's review), and its
// part of a person's data (server/lib/personal-data.ts), and how much marking work a teacher
// still has open (deleting or anonymising them waits for it).

export { reviewsPersonalData } from './personal-data.js';
export { countOpenWork as openMarkingWork } from './reviews.repo.js';
export { reviewsRoutes } from './reviews.routes.js';
export { type ReviewsService, reviewsService } from './reviews.service.js';
