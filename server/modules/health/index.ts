// The health module's public face.
export { healthRoutes } from './health.routes.js';
export { readinessCheck } from './readiness.js';
