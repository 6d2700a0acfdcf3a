// The users feature's public face: the pages the router mounts.
export { ProfilePage } from './ProfilePage.js';
export { StudentsPage } from './StudentsPage.js';
export { TeachersPage } from './TeachersPage.js';
