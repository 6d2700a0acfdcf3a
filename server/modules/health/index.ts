// The health module's public face.

export { registerDatabaseGauges } from './gauges.js';
export { healthRoutes } from './health.routes.js';
export { readinessCheck } from './readiness.js';
