import { Stack } from '@mui/material';
import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate, useLocation } from 'react-router';
import { LoadingScreen } from '../components/LoadingScreen.js';
import {
  RegisterStudentPage,
  RegisterTeacherPage,
  ThrottlesPage,
  WelcomePage,
} from '../features/auth/index.js';
import { MyDiplomasPage, VerifyDiplomaPage } from '../features/diplomas/index.js';
import {
  EditionPage,
  ExamDetailPage,
  ExamsPage,
  PhasePage,
  SignUpPage,
} from '../features/exams/index.js';
import { HelpPage } from '../features/help/index.js';
import { MailOutboxPage } from '../features/mail/index.js';
import {
  ConnectionCheckPage,
  ExamDayPage,
  MyTestsPage,
  TestPlayerPage,
} from '../features/player/index.js';
import {
  QuestionMediatorPage,
  QuestionReviewersPage,
  QuestionsPage,
} from '../features/questions/index.js';
import {
  MyRankings,
  PublishedRankingPage,
  RankingPage,
  RulesPage,
} from '../features/rankings/index.js';
import {
  AppealEntryPage,
  AppealListPage,
  MarkingHomePage,
  PhaseReviewPanel,
  ProgressPage,
  ReviewEntryPage,
  ReviewListPage,
  StudentResultPage,
} from '../features/reviews/index.js';
import { TestPaperPage, TestsPage } from '../features/tests/index.js';
import { StudentAnswersPage, TestStudentsPage } from '../features/uploads/index.js';
import { ProfilePage, StudentsPage, TeachersPage } from '../features/users/index.js';
import type { Access } from '../lib/access.js';
import { useAuth } from '../lib/auth.js';
import { Guard } from './guard.js';
import { AppLayout } from './layout/AppLayout.js';
import { AuthLayout } from './layout/AuthLayout.js';
import { BareLayout } from './layout/BareLayout.js';
import { HomePage } from './pages/HomePage.js';
import { LogoutPage } from './pages/LogoutPage.js';

const ALL = ['student', 'teacher', 'admin'] as const;
const STAFF = { roles: ['teacher', 'admin'], registered: true, active: true } satisfies Access;
const STUDENT = { roles: ['student'], registered: true, active: true } satisfies Access;
const MEMBER = { roles: ALL, registered: true, active: true } satisfies Access;
const ADMIN = { roles: ['admin'], registered: true, active: true } satisfies Access;

const guarded = (access: Access, element: ReactNode) => <Guard access={access}>{element}</Guard>;

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
      {
        path: phase,
        element: guarded(STAFF, <PhasePage reviewSection={<PhaseReviewPanel />} />),
      },
      { path: `${phase}/tests`, element: guarded(STAFF, <TestsPage />) },
      { path: `${phase}/test/:testId`, element: guarded(STAFF, <TestStudentsPage />) },
      {
        path: `${phase}/test/:testId/student/:studentId/answers`,
        element: guarded(STAFF, <StudentAnswersPage />),
      },
      { path: `${phase}/questions`, element: guarded(STAFF, <QuestionsPage />) },
      { path: `${phase}/clasament`, element: guarded(STAFF, <RankingPage />) },
      { path: `${phase}/reguli`, element: guarded(STAFF, <RulesPage />) },
      { path: `${phase}/ziua-examenului`, element: guarded(STAFF, <ExamDayPage />) },
      {
        path: `${phase}/questions/:questionId/mediator`,
        element: guarded(STAFF, <QuestionMediatorPage />),
      },
      {
        path: `${phase}/questions/:questionId/corectori`,
        element: guarded(STAFF, <QuestionReviewersPage />),
      },
      {
        path: 'tests',
        element: guarded(
          STUDENT,
          // SPEC.md §2: My tests, with the student's ranks (and, once closed, diplomas).
          <Stack spacing={4}>
            <MyTestsPage />
            <MyRankings />
          </Stack>,
        ),
      },
      {
        path: 'tests/clasament/:examId/:editionId/:phaseId',
        element: guarded(STUDENT, <PublishedRankingPage />),
      },
      // Marking and appeals: the phase's markers reach them without seeing the phase itself,
      // from the phases they mark in (the menu's "To mark").
      { path: 'de-corectat', element: guarded(STAFF, <MarkingHomePage />) },
      { path: `${phase}/corectare`, element: guarded(STAFF, <ReviewListPage />) },
      { path: `${phase}/corectare/:reviewId`, element: guarded(STAFF, <ReviewEntryPage />) },
      { path: `${phase}/contestatii`, element: guarded(STAFF, <AppealListPage />) },
      { path: `${phase}/contestatii/:reviewId`, element: guarded(STAFF, <AppealEntryPage />) },
      { path: `${phase}/progres-corectare`, element: guarded(STAFF, <ProgressPage />) },
      { path: 'teste/:testId/rezultat', element: guarded(STUDENT, <StudentResultPage />) },
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
      { path: 'limite-conectare', element: guarded(ADMIN, <ThrottlesPage />) },
      { path: 'profil', element: guarded({ roles: ALL, active: true }, <ProfilePage />) },
      {
        path: 'emailuri',
        element: guarded({ roles: ['admin'], registered: true, active: true }, <MailOutboxPage />),
      },
      { path: 'ajutor', element: <HelpPage /> },
      { path: 'verificare-conexiune', element: <ConnectionCheckPage /> },
      { path: 'diploma', element: guarded(MEMBER, <MyDiplomasPage view="student" />) },
      {
        path: 'diploma/teacher',
        element: guarded(STAFF, <MyDiplomasPage view="teacher" />),
      },
      // The page a diploma's QR code opens: for anyone, signed in or not.
      { path: 'diploma/verificare/:code', element: <VerifyDiplomaPage /> },
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
