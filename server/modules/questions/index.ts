// The resource-mgmt module's public face: the question bank's routes and services, and the
// statement images that tests print.
export type { FilesService } from './files.service.js';
export { type ResourceMgmt, resourceMgmt, resourceMgmtRoutes } from './resource-mgmt.js';
