import {
  APPEAL_LIST_TYPES,
  type AppealListType,
  type InsufficientTeachersDetail,
  REVIEW_LIST_TYPES,
  type StudentReviewItem,
} from '../../../../shared/schemas/reviews.js';
import type { EntryKind } from './paths.js';

/** The missing fields of the refusal, per question, in the order the server named them. */
export function missingByQuestion(details: unknown) {
  const out = new Map<string, InsufficientTeachersDetail['field'][]>();
  if (!Array.isArray(details)) return out;
  for (const d of details as InsufficientTeachersDetail[]) {
    if (!d || typeof d.itemId !== 'string') continue;
    if (d.field !== 'mediatorTeacher' && d.field !== 'gradingTeachers') continue;
    const fields = out.get(d.itemId) ?? [];
    if (!fields.includes(d.field)) fields.push(d.field);
    out.set(d.itemId, fields);
  }
  return out;
}

/** The list type the paper was opened from (`?tip=`), which next and previous walk through. */
export function listTypeOf(kind: EntryKind, value: string | null): AppealListType {
  const types: readonly AppealListType[] =
    kind === 'reviews' ? REVIEW_LIST_TYPES : APPEAL_LIST_TYPES;
  return types.find((ty) => ty === value) ?? 'REVIEW_ITEMS';
}

/** What an item shows under its score: its appeal, or that it is still being marked. */
export function appealLabel(
  item: StudentReviewItem,
): { key: string; color: 'default' | 'warning' | 'success' } | null {
  if (item.appealStatus === 'pending') return { key: 'status_appeal_pending', color: 'warning' };
  if (item.appealStatus === 'resolved') {
    return {
      key: item.appealOutcome === 'changed' ? 'result.appealChanged' : 'result.appealKept',
      color: 'success',
    };
  }
  if (item.finalScore === null) return { key: 'status_appeal_none', color: 'default' };
  return null;
}
