// The diploma-generator module's public face: its routes, its service and the maker of
// background diploma ZIPs, for the composition root.
export { type DiplomaJobs, diplomaJobs } from './diploma-jobs.js';
export { diplomasRoutes } from './diplomas.routes.js';
export { type DiplomasService, diplomasService } from './diplomas.service.js';
