import { appeals } from './appeals.js';
import { closing } from './closing.js';
import { type ReviewsDeps, reviewsContext } from './context.js';
import { keyFix } from './key-fix.js';
import { marking } from './marking.js';
import { staff } from './staff.js';
import { startReview } from './start-review.js';
import { student } from './student.js';

export type { ReviewsDeps } from './context.js';

/**
 * The test-review service (SPEC.md §7; shared/schemas/reviews.ts lists every call), put
 * together from its use cases: the start of review, first marking, appeals on the markers'
 * side, the student's result and appeal, the staff's tools and the key fix. The marking flow
 * both rounds share is rounds.ts; what every use case reads through is context.ts.
 */
export function reviewsService(deps: ReviewsDeps) {
  const ctx = reviewsContext(deps);
  return {
    ...startReview(ctx),
    ...marking(ctx),
    ...appeals(ctx),
    ...student(ctx),
    ...staff(ctx),
    ...keyFix(ctx),
    ...closing(ctx),
  };
}

export type ReviewsService = ReturnType<typeof reviewsService>;
