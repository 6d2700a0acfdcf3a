// The answers of where a teacher marks: their phases, the exam admins' decisions, the scope.

import { z } from 'zod';

/** The part a teacher has in a phase's marking: grading teacher, mediator, or both. */
export const MARKER_PART = ['reviewer', 'mediator'] as const;
export type MarkerPart = (typeof MARKER_PART)[number];

/**
 * `GET /test-review/my-phases`: a phase where the caller marks or mediates (a grading
 * teacher or the mediator of one of its questions, or given marks there), with their work
 * still open: marks to give, mediations waiting for them, appeal marks to give, appeal
 * mediations waiting for them. Newest phase first; no competition role needed.
 */
export const markerPhaseSchema = z.object({
  examId: z.string(),
  examName: z.string(),
  editionId: z.string(),
  editionName: z.string(),
  phaseId: z.string(),
  phaseName: z.string(),
  phaseType: z.enum(['online', 'hybrid']),
  reviewStarted: z.boolean(),
  roles: z.array(z.enum(MARKER_PART)),
  open: z.object({
    reviews: z.number(),
    mediations: z.number(),
    appeals: z.number(),
    appealMediations: z.number(),
  }),
});
export type MarkerPhase = z.infer<typeof markerPhaseSchema>;

/**
 * `GET /admin-decisions`: the phases of the competitions the caller administers (all, for a
 * platform admin) where appeals wait for the exam's admins to decide them (an appeal short of
 * re-markers, or whose question's mediator the rules bar), as many as the rules let the caller
 * decide; phases with none are left out.
 */
export const adminDecisionPhaseSchema = z.object({
  examId: z.string(),
  examName: z.string(),
  editionId: z.string(),
  phaseId: z.string(),
  phaseName: z.string(),
  appeals: z.number(),
});
export type AdminDecisionPhase = z.infer<typeof adminDecisionPhaseSchema>;

/**
 * `GET P/scope`: the phase as the marking screens name it, and how the caller stands on it
 * (the phase's markers and those who see the whole competition; anyone else 404).
 * `seesWholePhase`: staff, who may open the progress and the phase page; `managesExam`: the
 * exam's admins (key fixes, committee decisions).
 */
export const reviewScopeSchema = z.object({
  examId: z.string(),
  examName: z.string(),
  editionId: z.string(),
  editionName: z.string(),
  phaseId: z.string(),
  phaseName: z.string(),
  phaseType: z.enum(['online', 'hybrid']),
  reviewStarted: z.boolean(),
  seesWholePhase: z.boolean(),
  managesExam: z.boolean(),
});
export type ReviewScope = z.infer<typeof reviewScopeSchema>;
