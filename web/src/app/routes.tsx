import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, useLocation } from 'react-router';
import { RegisterStudentPage, RegisterTeacherPage } from '../features/auth/RegisterPage.js';
import { WelcomePage } from '../features/auth/WelcomePage.js';
import { HelpPage } from '../features/help/HelpPage.js';
import { ProfilePage } from '../features/users/ProfilePage.js';
import { StudentsPage } from '../features/users/StudentsPage.js';
import { TeachersPage } from '../features/users/TeachersPage.js';
import { type Access, Guard } from './guard.js';
import { LoadingScreen } from './LoadingScreen.js';
import { AppLayout } from './layout/AppLayout.js';
import { AuthLayout } from './layout/AuthLayout.js';
import { BareLayout } from './layout/BareLayout.js';
import { HomePage } from './pages/HomePage.js';
import { LogoutPage } from './pages/LogoutPage.js';
import { PlaceholderPage } from './pages/PlaceholderPage.js';
import { useAuth } from './providers/auth.js';

const ALL = ['student', 'teacher', 'admin'] as const;
const STAFF = { roles: ['teacher', 'admin'], registered: true, active: true } satisfies Access;
const STUDENT = { roles: ['student'], registered: true, active: true } satisfies Access;
const MEMBER = { roles: ALL, registered: true, active: true } satisfies Access;

const guarded = (access: Access, element: ReactNode) => <Guard access={access}>{element}</Guard>;
const soon = (access: Access, titleKey: string) =>
  guarded(access, <PlaceholderPage titleKey={titleKey} />);

/** Guests on `/` get the welcome screen without the app frame; everyone else gets the frame. */
function Shell() {
  const { status } = useAuth();
  const { pathname } = useLocation();
  if (status === 'checking') return <LoadingScreen />;
  if (status === 'guest' && pathname === '/') {
    return (
      <AuthLayout>
        <WelcomePage />
      </AuthLayout>
    );
  }
  return <AppLayout />;
}

const phase = '/examene/:examId/editii/:editionId/phases/:phaseId';

/** Every route of SPEC.md §2, with its guard; screens of later issues say they are coming. */
export const router = createBrowserRouter([
  {
    element: <Shell />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'examene', element: soon(MEMBER, 'pages.exams') },
      { path: 'examene/:examId', element: soon(STAFF, 'pages.examDetail') },
      { path: 'examene/:examId/editii/:editionId', element: soon(STAFF, 'pages.editionDetail') },
      { path: phase, element: soon(STAFF, 'pages.phaseDetail') },
      { path: `${phase}/test/:testId`, element: soon(STAFF, 'pages.testStudents') },
      {
        path: `${phase}/test/:testId/student/:studentId/answers`,
        element: soon(STAFF, 'pages.studentAnswers'),
      },
      {
        path: `${phase}/questions/:questionId/mediator`,
        element: soon(STAFF, 'pages.questionMediator'),
      },
      {
        path: `${phase}/questions/:questionId/corectori`,
        element: soon(STAFF, 'pages.questionReviewers'),
      },
      { path: 'tests', element: soon(STUDENT, 'pages.myTests') },
      { path: 'teste/:testId/rezultat', element: soon(STUDENT, 'pages.testResult') },
      { path: 'test/inscriere', element: soon(STUDENT, 'pages.testSignUp') },
      {
        path: 'inregistrare/profesor',
        element: guarded({ roles: ['teacher'], registered: false }, <RegisterTeacherPage />),
      },
      {
        path: 'inregistrare/elev',
        element: guarded({ roles: ['student'], registered: false }, <RegisterStudentPage />),
      },
      { path: 'profesori', element: guarded(STAFF, <TeachersPage />) },
      { path: 'elevi', element: guarded(STAFF, <StudentsPage />) },
      { path: 'profil', element: guarded({ roles: ALL, active: true }, <ProfilePage />) },
      { path: 'ajutor', element: <HelpPage /> },
      { path: 'diploma', element: soon(MEMBER, 'pages.diploma') },
      { path: 'diploma/teacher', element: soon(STAFF, 'pages.diplomaTeacher') },
    ],
  },
  {
    element: <BareLayout />,
    children: [
      { path: 'test/:testId', element: soon(STUDENT, 'pages.takeTest') },
      {
        path: 'test-download/examen/:examId/edition/:editionId/phase/:phaseId/test/:testId',
        element: <PlaceholderPage titleKey="pages.testDownload" />,
      },
    ],
  },
  { path: 'deconectare', element: <LogoutPage /> },
  { path: '*', element: <Navigate to="/" replace /> },
]);
