// The diploma-generator module's public face: its routes, its service and the maker of
// background diploma ZIPs, for the composition root; and its part of a person's data
// (server/lib/personal-data.ts); the diplomas already printed for students whose result changed
// when their phase closed again (exam-mgmt names them in its answer).

export { findDiplomasOfChanged } from './changed-results.js';
export { type DiplomaJobs, diplomaJobs } from './diploma-jobs.js';
export { diplomasRoutes } from './diplomas.routes.js';
export { type DiplomasService, diplomasService } from './diplomas.service.js';
export { diplomasPersonalData } from './personal-data.js';
