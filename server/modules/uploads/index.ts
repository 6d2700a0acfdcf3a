// The upload-mgmt module's public face: its routes and services for the composition root.

export { paperRoutes } from './paper.routes.js';
export { paperService } from './paper.service.js';
export { type PaperJobs, paperJobs } from './paper-jobs.js';
export { uploadsPersonalData } from './personal-data.js';
export { testStudentsService } from './test-students.service.js';
// What the marking screens reuse: how a file is handed out.
export { bytesSchema, contentDisposition } from './uploads.http.js';
export { uploadsRoutes } from './uploads.routes.js';
export { type UploadsService, uploadsService } from './uploads.service.js';
