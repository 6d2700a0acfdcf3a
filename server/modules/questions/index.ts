// The resource-mgmt module's public face: the question bank's routes and services, and the
// statement images that tests print; and taking a person who leaves out of every question's pool.
export type { FilesService } from './files.service.js';
export { leaveQuestionPools } from './leavers.js';
export { dataImportRoutes } from './questions.routes.js';
export { type ResourceMgmt, resourceMgmt, resourceMgmtRoutes } from './resource-mgmt.js';
