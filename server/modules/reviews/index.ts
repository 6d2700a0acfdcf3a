// The test-review module's public face: its routes and service for the composition root, which
// also hands exam-mgmt the service's `beginReview` (the start of a phase's review), and its
// part of a person's data (server/lib/personal-data.ts).
export { reviewsPersonalData } from './personal-data.js';
export { reviewsRoutes } from './reviews.routes.js';
export { type ReviewsService, reviewsService } from './reviews.service.js';
