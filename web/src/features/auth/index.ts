// The auth feature's public face: the pages the router mounts.
export { RegisterStudentPage, RegisterTeacherPage } from './RegisterPage.js';
export { ThrottlesPage } from './ThrottlesPage.js';
export { WelcomePage } from './WelcomePage.js';
