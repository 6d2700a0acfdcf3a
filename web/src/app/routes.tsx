import { Stack } from '@mui/material';
import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { Navigate, type RouteObject, useLocation, useRoutes } from 'react-router';
import { LoadingScreen } from '../components/LoadingScreen.js';
import { withStaffStrings } from '../i18n/index.js';
import type { Access } from '../lib/access.js';
import { useAuth } from '../lib/auth.js';
import { Guard } from './guard.js';
import { AppLayout } from './layout/AppLayout.js';
import { AuthLayout } from './layout/AuthLayout.js';
import { BareLayout } from './layout/BareLayout.js';
import { HomePage } from './pages/HomePage.js';
import { LogoutPage } from './pages/LogoutPage.js';

/**
 * Each feature is a chunk of its own, fetched when one of its pages is first shown: a student's
 * device loads the sign-in, My tests and the player, never the staff screens it does not open
 * (scripts/check-budgets.mjs holds the student's path to its budget).
 */
// biome-ignore lint/suspicious/noExplicitAny: a page's props are checked where it is mounted
function page<M extends Record<K, ComponentType<any>>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
) {
  return lazy(() =>
    load().then((m) => {
      // A feature may export a page that is lazy itself (a staff screen kept out of its chunk):
      // React takes a lazy page only inside another component, never as what `lazy` resolves to.
      const Page = m[name];
      // biome-ignore lint/suspicious/noExplicitAny: the props are those of the page
      return { default: (props: any) => <Page {...props} /> };
    }),
  );
}

// The features of the student's path show the core strings only; the others wait for the staff
// strings too (i18n/parts.ts), which a student's device never fetches unless it opens one.
const auth = () => import('../features/auth/index.js');
const player = () => import('../features/player/index.js');
const rankings = () => import('../features/rankings/index.js');
const diplomas = () => withStaffStrings(import('../features/diplomas/index.js'));
const exams = () => withStaffStrings(import('../features/exams/index.js'));
const help = () => withStaffStrings(import('../features/help/index.js'));
const mail = () => withStaffStrings(import('../features/mail/index.js'));
const questions = () => withStaffStrings(import('../features/questions/index.js'));
const reviews = () => withStaffStrings(import('../features/reviews/index.js'));
const tests = () => withStaffStrings(import('../features/tests/index.js'));
const uploads = () => withStaffStrings(import('../features/uploads/index.js'));
const users = () => withStaffStrings(import('../features/users/index.js'));

const RegisterStudentPage = page(auth, 'RegisterStudentPage');
const RegisterTeacherPage = page(auth, 'RegisterTeacherPage');
const SecurityPage = page(auth, 'SecurityPage');
const ThrottlesPage = page(auth, 'ThrottlesPage');
const WelcomePage = page(auth, 'WelcomePage');
const MyDiplomasPage = page(diplomas, 'MyDiplomasPage');
const VerifyDiplomaPage = page(diplomas, 'VerifyDiplomaPage');
const EditionPage = page(exams, 'EditionPage');
const ExamDetailPage = page(exams, 'ExamDetailPage');
const ExamsPage = page(exams, 'ExamsPage');
const PhasePage = page(exams, 'PhasePage');
const SignUpPage = page(exams, 'SignUpPage');
const HelpPage = page(help, 'HelpPage');
const MailOutboxPage = page(mail, 'MailOutboxPage');
const ConnectionCheckPage = page(player, 'ConnectionCheckPage');
const MyTestsPage = page(player, 'MyTestsPage');
const TestPlayerPage = page(player, 'TestPlayerPage');
const ExamDayPage = page(player, 'ExamDayPage');
const QuestionMediatorPage = page(questions, 'QuestionMediatorPage');
const QuestionReviewersPage = page(questions, 'QuestionReviewersPage');
const QuestionsPage = page(questions, 'QuestionsPage');
const MyRankings = page(rankings, 'MyRankings');
const PublishedRankingPage = page(rankings, 'PublishedRankingPage');
const RankingPage = page(rankings, 'RankingPage');
const RulesPage = page(rankings, 'RulesPage');
const AppealEntryPage = page(reviews, 'AppealEntryPage');
const AppealListPage = page(reviews, 'AppealListPage');
const MarkingHomePage = page(reviews, 'MarkingHomePage');
const PhaseReviewPanel = page(reviews, 'PhaseReviewPanel');
const ProgressPage = page(reviews, 'ProgressPage');
const ReviewEntryPage = page(reviews, 'ReviewEntryPage');
const ReviewListPage = page(reviews, 'ReviewListPage');
const StudentResultPage = page(reviews, 'StudentResultPage');
const TestPaperPage = page(tests, 'TestPaperPage');
const TestsPage = page(tests, 'TestsPage');
const PaperExamPage = page(uploads, 'PaperExamPage');
const StudentAnswersPage = page(uploads, 'StudentAnswersPage');
const TestStudentsPage = page(uploads, 'TestStudentsPage');
const ProfilePage = page(users, 'ProfilePage');
const StudentsPage = page(users, 'StudentsPage');
const TeachersPage = page(users, 'TeachersPage');

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
        <Suspense fallback={<LoadingScreen />}>
          <WelcomePage />
        </Suspense>
      </AuthLayout>
    );
  }
  return <AppLayout />;
}

const phase = '/examene/:examId/editii/:editionId/phases/:phaseId';

/** Every route of SPEC.md §2, with its guard; screens of later issues say they are coming. */
const ROUTES: RouteObject[] = [
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
      { path: `${phase}/test/:testId/hartie`, element: guarded(STAFF, <PaperExamPage />) },
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
      // Any signed-in account, also one waiting for activation: the password is its own.
      { path: 'cont/securitate', element: guarded({ roles: ALL }, <SecurityPage />) },
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
];

/**
 * The routes, in react-router's declarative mode (App.tsx puts them in a `BrowserRouter`): the
 * app uses no loaders, actions or blockers, and the data router that serves them is about 15 kB
 * of every student's first load (brotli; bench/README.md, "First load").
 */
export function AppRoutes() {
  return useRoutes(ROUTES);
}
