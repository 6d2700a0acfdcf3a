// The auth feature's public face: the pages the router mounts.
import { lazy } from 'react';

export { RegisterStudentPage, RegisterTeacherPage } from './RegisterPage.js';
export { WelcomePage } from './WelcomePage.js';

// An admin's screen: a chunk of its own, so that the sign-in page never brings it.
export const ThrottlesPage = lazy(() =>
  import('./ThrottlesPage.js').then((m) => ({ default: m.ThrottlesPage })),
);
