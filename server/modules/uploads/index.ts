// The upload-mgmt module's public face: its routes and services for the composition root.
export { testStudentsService } from './test-students.service.js';
export { uploadsRoutes } from './uploads.routes.js';
export { type UploadsService, uploadsService } from './uploads.service.js';
