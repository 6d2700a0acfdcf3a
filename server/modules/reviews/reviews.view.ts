import {
  averageMark,
  type ContestationEntry,
  type HistoryEvent,
  type Mark,
  type MarkerRole,
  type ReviewEntry,
} from '../../../shared/schemas/reviews.js';
import { lacksMarkers, type Viewer } from './deciders.js';
import type { AppealRow, EntryRow, MarkRow } from './reviews.repo.js';

// What a caller is shown of an entry or an appeal (blind marking, shared/schemas/reviews.ts):
// markers never get the student's identity, and a reviewer sees the other reviewer's mark, the
// mediation and the final score only once they have given their own.

export type { Viewer };

/** The phase's marking settings. */
export type PhaseSettings = { markStep: number; threshold: number; appealMinPoints: number };

const num = (v: number | string | null | undefined): number | null =>
  v === null || v === undefined ? null : Number(v);

/** How the viewer stands on an entry or appeal; undefined: they may not see it at all. */
export function roleOn(
  marks: readonly MarkRow[],
  mediatorId: string | null,
  viewer: Viewer,
): MarkerRole | undefined {
  if (marks.some((m) => m.reviewerId === viewer.id)) return 'reviewer';
  if (mediatorId !== null && mediatorId === viewer.id) return 'mediator';
  if (viewer.whole) return 'staff';
  return undefined;
}

/** Whether the viewer may see every mark of it (their own given, both given for a mediator). */
export function seesAll(role: MarkerRole, marks: readonly MarkRow[], viewerId: string): boolean {
  if (role === 'staff') return true;
  if (role === 'reviewer') {
    const mine = marks.find((m) => m.reviewerId === viewerId);
    return mine?.score !== null && mine?.score !== undefined;
  }
  return marks.length >= 2 && marks.every((m) => m.score !== null);
}

function marksAsSeen(marks: readonly MarkRow[], viewer: Viewer, all: boolean): Mark[] {
  return marks
    .filter((m) => all || m.reviewerId === viewer.id)
    .map((m) => ({
      _id: m.id,
      reviewer: m.slot,
      isMine: m.reviewerId === viewer.id,
      reviewerId: viewer.whole ? m.reviewerId : null,
      reviewerScore: num(m.score),
      criteria: m.criteria,
      note: m.note,
      markedAt: m.markedAt?.toISOString() ?? null,
    }));
}

const scoreOf = (marks: readonly MarkRow[], slot: number) =>
  num(marks.find((m) => m.slot === slot)?.score);

function gradesOf(marks: readonly MarkRow[], all: boolean) {
  const grade1 = all ? scoreOf(marks, 1) : null;
  const grade2 = all ? scoreOf(marks, 2) : null;
  const average = grade1 !== null && grade2 !== null ? averageMark(grade1, grade2) : null;
  return { grade1, grade2, average };
}

/**
 * `mediatorId` is the question's mediator when the rules let them decide the row (deciders.ts),
 * `decides` whether the viewer decides it when its marks differ too much.
 */
export function entryView(
  row: EntryRow,
  marks: readonly MarkRow[],
  mediatorId: string | null,
  decides: boolean,
  hasAppeal: boolean,
  settings: PhaseSettings,
  viewer: Viewer,
): ReviewEntry | undefined {
  const role = roleOn(marks, mediatorId, viewer);
  if (!role) return undefined;
  const all = seesAll(role, marks, viewer.id);
  const mine = marks.find((m) => m.reviewerId === viewer.id);
  const maxScore = Number(row.maxScore);
  return {
    _id: row.id,
    code: row.code,
    itemIndexInTest: row.itemIndexInTest,
    testId: row.testId,
    itemId: row.itemId,
    answerId: row.answerId,
    studentId: role === 'staff' ? row.studentId : null,
    reviews: marksAsSeen(marks, viewer, all),
    reviewInfo: {
      status: row.status,
      maxScore,
      markStep: settings.markStep,
      thresholdPoints: Math.round(settings.threshold * maxScore * 100) / 100,
      ...gradesOf(marks, all),
      mediatorScore: all ? num(row.mediatorScore) : null,
      mediatorNote: all ? row.mediatorNote : null,
      mediatedAt: all ? (row.mediatedAt?.toISOString() ?? null) : null,
      finalScore: all ? num(row.finalScore) : null,
      finalBy: all ? row.finalBy : null,
      hasAppeal,
    },
    reviewerScore: num(mine?.score),
    myRole: role,
    version: row.version,
    canMark: role === 'reviewer' && row.status === 'marking' && !hasAppeal,
    canMediate: decides && row.status === 'needs_mediation' && !hasAppeal,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** `mediatorId` and `decides` as for entryView. */
export function appealView(
  row: AppealRow,
  marks: readonly MarkRow[],
  mediatorId: string | null,
  decides: boolean,
  settings: PhaseSettings,
  viewer: Viewer,
): ContestationEntry | undefined {
  // A committee appeal is the exam's admins' (and those who see the whole competition).
  const role =
    row.kind === 'committee'
      ? viewer.whole
        ? 'staff'
        : undefined
      : roleOn(marks, mediatorId, viewer);
  if (!role) return undefined;
  const all = seesAll(role, marks, viewer.id);
  const mine = marks.find((m) => m.reviewerId === viewer.id);
  const maxScore = Number(row.maxScore);
  const short = lacksMarkers(row, marks);
  return {
    _id: row.id,
    code: row.code,
    itemIndexInTest: row.itemIndexInTest,
    testId: row.testId,
    itemId: row.itemId,
    answerId: row.answerId ?? '',
    studentId: role === 'staff' ? row.studentId : null,
    appeals: marksAsSeen(marks, viewer, all),
    appealInfo: {
      kind: row.kind,
      status: row.status,
      reason: row.reason,
      filedAt: row.filedAt.toISOString(),
      maxScore,
      markStep: settings.markStep,
      thresholdPoints: Math.round(settings.threshold * maxScore * 100) / 100,
      minChangePoints: settings.appealMinPoints,
      originalScore: all ? num(row.originalScore) : null,
      ...gradesOf(marks, all),
      mediatorScore: all ? num(row.mediatorScore) : null,
      mediatorNote: all ? row.mediatorNote : null,
      resultScore: all ? num(row.resultScore) : null,
      finalScore: all ? num(row.finalScore) : null,
      outcome: all ? row.outcome : null,
      decisionNote: all ? row.decisionNote : null,
      resolvedAt: row.resolvedAt?.toISOString() ?? null,
      waitsForMarkers: short,
    },
    reviewerScore: num(mine?.score),
    myRole: role,
    version: row.version,
    canMark: role === 'reviewer' && row.kind === 'remark' && row.status === 'pending',
    canMediate: row.kind === 'remark' && decides && (row.status === 'needs_mediation' || short),
    canDecide: viewer.manage && row.kind === 'committee' && row.status === 'pending',
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** An audit event as the history shows it. */
export type AuditRow = {
  id: string;
  actorId: string | null;
  action: string;
  before: unknown;
  after: unknown;
  reason: string | null;
  at: Date;
};

const ACTIONS: Record<string, HistoryEvent['action']> = {
  'review.assigned': 'assigned',
  'review.reassigned': 'reassigned',
  'review.marked': 'marked',
  'review.mediated': 'mediated',
  'appeal.filed': 'appealed',
  'appeal.assigned': 'assigned',
  'appeal.reassigned': 'reassigned',
  'appeal.marked': 'appeal_marked',
  'appeal.mediated': 'appeal_mediated',
  'appeal.decided': 'appeal_decided',
  'appeal.key_fixed': 'key_fixed',
};

const scoreIn = (v: unknown): number | null => {
  const s = (v as { score?: unknown } | null)?.score;
  return typeof s === 'number' ? s : null;
};
const slotIn = (v: unknown): number | null => {
  const s = (v as { slot?: unknown } | null)?.slot;
  return typeof s === 'number' ? s : null;
};

/**
 * The trail of an entry or appeal as the viewer may know it: a reviewer who has not marked yet
 * sees only their own events (their assignment, their marks); the student's reason stays with
 * the appeal's own view. Identities only for those who see the whole competition.
 */
export function historyView(
  events: readonly AuditRow[],
  role: MarkerRole,
  all: boolean,
  mySlot: number | null,
  viewer: Viewer,
): HistoryEvent[] {
  const out: HistoryEvent[] = [];
  for (const e of events) {
    const action = ACTIONS[e.action];
    if (!action) continue;
    const slot = slotIn(e.after) ?? slotIn(e.before);
    const isMine =
      e.actorId === viewer.id || (slot !== null && slot === mySlot && role === 'reviewer');
    if (!all && !isMine) continue;
    let by: HistoryEvent['by'];
    if (e.actorId === viewer.id) by = 'me';
    else if (action === 'appealed') by = 'student';
    else if (action === 'mediated' || action === 'appeal_mediated') by = 'mediator';
    else if (action === 'appeal_decided' || action === 'key_fixed') by = 'committee';
    else if (action === 'marked' || action === 'appeal_marked') by = 'reviewer';
    else by = 'system';
    out.push({
      _id: e.id,
      at: e.at.toISOString(),
      action,
      by,
      reviewer: slot,
      actorId: viewer.whole ? e.actorId : null,
      before: scoreIn(e.before),
      after: scoreIn(e.after),
      // The student's reason is theirs to the committee; markers read it on the appeal.
      note: action === 'appealed' && !viewer.whole ? null : e.reason,
    });
  }
  return out;
}
