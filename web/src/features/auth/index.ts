// The auth feature's public face: the pages the router mounts.
import { lazy } from 'react';
import { withStaffStrings } from '../../i18n/index.js';

export { WelcomePage } from './WelcomePage.js';

// An admin's screen: a chunk of its own, so that the sign-in page never brings it.
export const ThrottlesPage = lazy(() =>
  withStaffStrings(import('./ThrottlesPage.js')).then((m) => ({ default: m.ThrottlesPage })),
);

// Filled in once, when an account is new: the profile form and its pickers are a chunk of their
// own, so signing in on exam day does not fetch them.
export const RegisterStudentPage = lazy(() =>
  withStaffStrings(import('./RegisterPage.js')).then((m) => ({ default: m.RegisterStudentPage })),
);
export const RegisterTeacherPage = lazy(() =>
  withStaffStrings(import('./RegisterPage.js')).then((m) => ({ default: m.RegisterTeacherPage })),
);

// The signed-in user's password and sessions: opened now and then, a chunk of its own.
export const SecurityPage = lazy(() =>
  import('./SecurityPage.js').then((m) => ({ default: m.SecurityPage })),
);
