import { z } from 'zod';
import { SEARCH_MAX, SEARCH_MIN } from './home-values.js';
import { MY_TEST_STATES } from './player.js';

/** What blocks a phase in progress, in the order an organiser meets them. */
export const PHASE_BLOCKERS = [
  'no_tests',
  'tests_unpublished',
  'markers_missing',
  'pages_awaiting',
  'appeals_open',
  'rules_not_applied',
  'phase_not_closed',
] as const;
export type PhaseBlocker = (typeof PHASE_BLOCKERS)[number];

/** How many of each list a home shows (the rest is one click away). */
export const HOME_LIMITS = { tests: 3, results: 5, phases: 10 } as const;

const phaseRef = {
  examId: z.uuid(),
  examName: z.string(),
  editionId: z.uuid(),
  editionName: z.string(),
  phaseId: z.uuid(),
  phaseName: z.string(),
};

export const homeTestSchema = z.object({
  testId: z.uuid(),
  name: z.string(),
  examName: z.string(),
  phaseName: z.string(),
  type: z.enum(['online', 'hybrid']),
  startDate: z.string(),
  endDate: z.string(),
  /** Minutes. */
  duration: z.number().int(),
  state: z.enum(MY_TEST_STATES),
});

export const homeResultSchema = z.object({
  testId: z.uuid(),
  name: z.string(),
  phaseName: z.string(),
  score: z.number().nullable(),
  totalScore: z.number(),
  scoreState: z.string().nullable(),
});

export const teacherPhaseSchema = z.object({
  ...phaseRef,
  startDate: z.string(),
  /** The teacher's own students taking part. */
  students: z.number().int(),
  /** Of those, accounts still waiting for activation (they cannot start a test). */
  inactive: z.number().int(),
});

export const markingWorkSchema = z.object({
  ...phaseRef,
  /** Marks and mediations the teacher still owes (first marking and appeals). */
  open: z.number().int(),
});

export const organiserPhaseSchema = z.object({
  ...phaseRef,
  type: z.enum(['online', 'hybrid']),
  startDate: z.string(),
  endDate: z.string(),
  blockers: z.array(z.object({ kind: z.enum(PHASE_BLOCKERS), count: z.number().int() })),
});

/** `GET /home-service/home`: the signed-in person's next steps, one section per part they play. */
export const homeSchema = z.object({
  student: z
    .object({ tests: z.array(homeTestSchema), results: z.array(homeResultSchema) })
    .nullable(),
  teacher: z
    .object({
      students: z.object({ total: z.number().int(), inactive: z.number().int() }),
      phases: z.array(teacherPhaseSchema),
      marking: z.array(markingWorkSchema),
    })
    .nullable(),
  organiser: z.object({ phases: z.array(organiserPhaseSchema) }).nullable(),
  /** What the menu shows: competitions the person sees (none: no "Competitions" item). */
  menu: z.object({ exams: z.number().int() }),
});
export type Home = z.infer<typeof homeSchema>;
export type OrganiserPhase = z.infer<typeof organiserPhaseSchema>;

export { SEARCH_MAX, SEARCH_MIN } from './home-values.js';
export const SEARCH_PER_KIND = 5;
export const SEARCH_KINDS = ['person', 'exam', 'phase', 'test', 'question'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const searchQuerySchema = z.object({
  q: z
    .string({ error: 'required' })
    .trim()
    .min(SEARCH_MIN, 'too_short')
    .max(SEARCH_MAX, 'too_long'),
});

export const searchHitSchema = z.object({
  kind: z.enum(SEARCH_KINDS),
  id: z.uuid(),
  /** What the hit is called (a name, a question's first words). */
  title: z.string(),
  /** Where it belongs (competition › edition › phase; a person's role). */
  context: z.string(),
  /** The screen that opens it. */
  link: z.string(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;
export const searchResultSchema = z.object({ hits: z.array(searchHitSchema) });
