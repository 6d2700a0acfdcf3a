// Each person's home: what they do next, built from the same scopes as the lists they open
// from it. A student's tests come from the player (My tests' own rules), a marker's work from
// the test-review module (counts only, never a student), the rest from home.repo.ts.
import { HOME_LIMITS, type Home, type PhaseBlocker } from '../../../shared/schemas/home.js';
import type { MyTest } from '../../../shared/schemas/player.js';
import type { MarkerPhase } from '../../../shared/schemas/reviews.js';
import type { Db } from '../../db/client.js';
import type { Actor } from '../../lib/auth-guard.js';
import type { Clock } from '../../lib/clock.js';
import * as repo from './home.repo.js';

export type HomeDeps = {
  db: Db;
  clock: Clock;
  /** The player's list of a student's tests. */
  myTests: (actor: Actor) => Promise<MyTest[]>;
  /** The test-review module's phases where a teacher marks, with their open work. */
  markerPhases: (actor: Actor) => Promise<MarkerPhase[]>;
  /** The exam-mgmt count of the competitions the person may see (the list's own scope). */
  countExams: (actor: Actor) => Promise<number>;
};

const COMING: readonly MyTest['state'][] = ['in_progress', 'open', 'upcoming'];

/** What blocks a phase, from its counts; a phase past its end that is still open says so last. */
export function phaseBlockers(
  p: Awaited<ReturnType<typeof repo.findOrganiserPhases>>[number],
  now: Date,
): { kind: PhaseBlocker; count: number }[] {
  const over = p.endDate.getTime() <= now.getTime();
  const out: { kind: PhaseBlocker; count: number }[] = [];
  if (p.tests === 0) out.push({ kind: 'no_tests', count: 0 });
  if (p.unpublished > 0) out.push({ kind: 'tests_unpublished', count: p.unpublished });
  if (!p.reviewStarted && p.markersMissing > 0) {
    out.push({ kind: 'markers_missing', count: p.markersMissing });
  }
  if (p.pagesAwaiting > 0) out.push({ kind: 'pages_awaiting', count: p.pagesAwaiting });
  if (p.appealsOpen > 0) out.push({ kind: 'appeals_open', count: p.appealsOpen });
  if (over && p.undecided > 0) out.push({ kind: 'rules_not_applied', count: p.undecided });
  if (over) out.push({ kind: 'phase_not_closed', count: 0 });
  return out;
}

export function homeService({ db, clock, myTests, markerPhases, countExams }: HomeDeps) {
  async function studentPart(actor: Actor): Promise<Home['student']> {
    const mine = await myTests(actor);
    const tests = mine
      .filter((t) => COMING.includes(t.state))
      .sort((a, b) => a.startDate.localeCompare(b.startDate))
      .slice(0, HOME_LIMITS.tests)
      .map((t) => ({
        testId: t.testId,
        name: t.name,
        examName: t.examName,
        phaseName: t.phaseName,
        type: t.type,
        startDate: t.startDate,
        endDate: t.endDate,
        duration: t.duration,
        state: t.state,
      }));
    const results = mine
      .filter((t) => t.state === 'result_available')
      .sort((a, b) => b.endDate.localeCompare(a.endDate))
      .slice(0, HOME_LIMITS.results)
      .map((t) => ({
        testId: t.testId,
        name: t.name,
        phaseName: t.phaseName,
        score: t.score,
        totalScore: t.totalScore,
        scoreState: t.scoreState,
      }));
    return { tests, results };
  }

  async function teacherPart(actor: Actor): Promise<Home['teacher']> {
    const now = clock.now();
    const [students, phases, marking] = await Promise.all([
      repo.countOwnStudents(db, actor.id),
      repo.findOwnStudentsPhases(db, actor.id, now, HOME_LIMITS.phases),
      markerPhases(actor),
    ]);
    return {
      students,
      phases: phases.map((p) => ({ ...p, startDate: p.startDate.toISOString() })),
      marking: marking
        .filter((m) => m.reviewStarted)
        .map((m) => ({
          examId: m.examId,
          examName: m.examName,
          editionId: m.editionId,
          editionName: m.editionName,
          phaseId: m.phaseId,
          phaseName: m.phaseName,
          open: m.open.reviews + m.open.mediations + m.open.appeals + m.open.appealMediations,
        }))
        .filter((m) => m.open > 0),
    };
  }

  async function organiserPart(actor: Actor): Promise<Home['organiser']> {
    const now = clock.now();
    const rows = await repo.findOrganiserPhases(db, actor, HOME_LIMITS.phases);
    if (rows.length === 0 && actor.type !== 'admin') return null;
    return {
      phases: rows.map((p) => ({
        examId: p.examId,
        examName: p.examName,
        editionId: p.editionId,
        editionName: p.editionName,
        phaseId: p.phaseId,
        phaseName: p.phaseName,
        type: p.type,
        startDate: p.startDate.toISOString(),
        endDate: p.endDate.toISOString(),
        blockers: phaseBlockers(p, now),
      })),
    };
  }

  return {
    /**
     * The caller's home: a student's next tests and results; a teacher's students, the phases
     * they take part in and the marking left; an organiser's phases with what blocks each.
     * An account not active (or not registered) gets only its menu.
     */
    async home(actor: Actor): Promise<Home> {
      const ready = actor.type === 'admin' || (actor.state === 'active' && actor.registered);
      if (!ready) return { student: null, teacher: null, organiser: null, menu: { exams: 0 } };
      const exams = await countExams(actor);
      if (actor.type === 'student') {
        return {
          student: await studentPart(actor),
          teacher: null,
          organiser: null,
          menu: { exams },
        };
      }
      return {
        student: null,
        teacher: actor.type === 'teacher' ? await teacherPart(actor) : null,
        organiser: await organiserPart(actor),
        menu: { exams },
      };
    },
  };
}

export type HomeService = ReturnType<typeof homeService>;
