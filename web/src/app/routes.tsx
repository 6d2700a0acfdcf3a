import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, useLocation } from 'react-router';
import { RegisterStudentPage, RegisterTeacherPage } from '../features/auth/RegisterPage.js';
import { WelcomePage } from '../features/auth/WelcomePage.js';
import { EditionPage } from '../features/exams/EditionPage.js';
import { ExamDetailPage } from '../features/exams/ExamDetailPage.js';
import { ExamsPage } from '../features/exams/ExamsPage.js';
import { PhasePage } from '../features/exams/PhasePage.js';
import { SignUpPage } from '../features/exams/SignUpPage.js';
import { HelpPage } from '../features/help/HelpPage.js';
import { ConnectionCheckPage } from '../features/player/connection/ConnectionCheckPage.js';
import { MyTestsPage } from '../features/player/MyTestsPage.js';
import { TestPlayerPage } from '../features/player/TestPlayerPage.js';
import {
  QuestionMediatorPage,
  QuestionReviewersPage,
} from '../features/questions/QuestionMarkersPage.js';
import { QuestionsPage } from '../features/questions/QuestionsPage.js';
import { TestPaperPage } from '../features/tests/TestPaperPage.js';
import { TestsPage } from '../features/tests/TestsPage.js';
import { StudentAnswersPage } from '../features/uploads/StudentAnswersPage.js';
import { TestStudentsPage } from '../features/uploads/TestStudentsPage.js';
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
      { path: 'examene', element: guarded(MEMBER, <ExamsPage />) },
      { path: 'examene/:examId', element: guarded(STAFF, <ExamDetailPage />) },
      { path: 'examene/:examId/editii/:editionId', element: guarded(STAFF, <EditionPage />) },
      { path: phase, element: guarded(STAFF, <PhasePage />) },
      { path: `${phase}/tests`, element: guarded(STAFF, <TestsPage />) },
      { path: `${phase}/test/:testId`, element: guarded(STAFF, <TestStudentsPage />) },
      {
        path: `${phase}/test/:testId/student/:studentId/answers`,
        element: guarded(STAFF, <StudentAnswersPage />),
      },
      { path: `${phase}/questions`, element: guarded(STAFF, <QuestionsPage />) },
      {
        path: `${phase}/questions/:questionId/mediator`,
        element: guarded(STAFF, <QuestionMediatorPage />),
      },
      {
        path: `${phase}/questions/:questionId/corectori`,
        element: guarded(STAFF, <QuestionReviewersPage />),
      },
      { path: 'tests', element: guarded(STUDENT, <MyTestsPage />) },
      { path: 'teste/:testId/rezultat', element: soon(STUDENT, 'pages.testResult') },
      { path: 'test/inscriere', element: guarded(STUDENT, <SignUpPage />) },
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
      { path: 'verificare-conexiune', element: <ConnectionCheckPage /> },
      { path: 'diploma', element: soon(MEMBER, 'pages.diploma') },
      { path: 'diploma/teacher', element: soon(STAFF, 'pages.diplomaTeacher') },
    ],
  },
  {
    element: <BareLayout />,
    children: [
      // Guarded inside: it also opens offline for a student whose session this device holds.
      { path: 'test/:testId', element: <TestPlayerPage /> },
      {
        path: 'test-download/examen/:examId/edition/:editionId/phase/:phaseId/test/:testId',
        // No role on the route (SPEC.md §2): the data call decides who may see the paper.
        element: <TestPaperPage />,
      },
    ],
  },
  { path: 'deconectare', element: <LogoutPage /> },
  { path: '*', element: <Navigate to="/" replace /> },
]);
