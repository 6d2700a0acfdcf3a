/**
 * Marking, mediation and appeals (SPEC.md §3 review and contestation entries, student review
 * item; §4 hybrid phase review and appeals; §7 Review service), the `test-review` service.
 *
 * ## Endpoints
 *
 * Staff and markers, under `/api/v1/test-review/exams/{examId}/editions/{editionId}/phases/{phaseId}`
 * (`P` below). Who gets an answer: the phase's markers (a grading teacher or the mediator of
 * one of its questions) and those who see the whole competition (platform admins, the exam's
 * admin teachers, its staff); anyone else 404.
 *
 * - `GET  P/reviews?filter=ReviewListFilter` → `ReviewEntry[]` (type `REVIEW_ITEMS` by default)
 * - `GET  P/reviews/count?where=ReviewCountWhere` → `{ count }`
 * - `GET  P/reviews/{reviewId}` → `ReviewDetail` (the entry, the question, the answer, the rubric)
 * - `PUT  P/reviews/{reviewId}` body `MarkInput` → `ReviewEntry` (an assigned reviewer's mark)
 * - `GET  P/reviews/{reviewId}/history` → `HistoryEvent[]`
 * - `PUT  P/reviews/{reviewId}/mediations` body `MarkInput` → `ReviewEntry` (the mediator)
 * - `GET  P/reviews/{reviewId}/answer` → `response_{code}.zip` (every page, in order)
 * - `GET  P/reviews/{reviewId}/files/{fileId}` → one page of the answer, or an image of the
 *   question's statement, inline (pass it as `renderStatement`'s `imageSrc`)
 * - `GET  P/appeals?filter=AppealListFilter` → `ContestationEntry[]` (type `REVIEW_ITEMS` by default)
 * - `GET  P/appeals/count?where=AppealCountWhere` → `{ count }`
 * - `GET  P/appeals/{reviewId}` → `AppealDetail`
 * - `PUT  P/appeals/{reviewId}` body `MarkInput` → `ContestationEntry` (an appeal reviewer)
 * - `PUT  P/appeals/{reviewId}/mediations` body `MarkInput` → `ContestationEntry` (appeal mediator)
 * - `PUT  P/appeals/{reviewId}/decision` body `AppealDecisionInput` → `ContestationEntry`
 *   (the exam's admins close a committee appeal: the score stays)
 * - `GET  P/appeals/{reviewId}/history`, `…/answer`, `…/files/{fileId}`: as for reviews
 * - `GET  P/items/{itemId}/rubric` → `Rubric`; `PUT` body `RubricInput` → `Rubric` (staff)
 * - `GET  P/progress` → `ReviewProgress` (staff)
 * - `POST P/reminders` body `ReminderInput` → `ReminderResult` (staff)
 * - `POST P/reassignments` body `ReassignInput` → `ReassignResult` (staff)
 * - `GET  P/scope` → `ReviewScope` (the phase's names and the caller's standing on it)
 * - `POST P/items/{itemId}/key/preview` body `KeyFixInput` → `KeyFixPreview` (exam's admins)
 * - `PUT  P/items/{itemId}/key` body `KeyFixInput` → `KeyFixResult` (exam's admins)
 *
 * The start of review stays where SPEC.md §7 puts it, `PUT /api/v1/exam-mgmt/…/phases/{phaseId}/review`:
 * 409 `INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS` with `details: InsufficientTeachersDetail[]`
 * (one entry per missing field per question) until every question that people mark has two
 * grading teachers and a mediator; 409 `TESTS_STILL_RUNNING` in an online phase while one of its
 * tests is open or an attempt runs. On success every answer gets its two reviewers.
 *
 * Any teacher: `GET /api/v1/test-review/my-phases` → `MarkerPhase[]`, the phases where they
 * mark or mediate with their open work (empty for a teacher with none; students 403).
 *
 * Students, under `/api/v1/test-review/tests/{testId}`:
 * - `GET  …/items` → `StudentResult` (their own test; 404 before any result exists)
 * - `PUT  …/items/{itemId}/appeal` body `AppealInput` → `StudentReviewItem`
 *
 * Phases (exam-mgmt `Phase`) gain two settings next to `mediationThreshold`: `markStep` (the
 * step of marks, 0.5 by default) and `appealMinPoints` (points, 0 by default: an appeal whose
 * re-marked paper differs from the first by less keeps the original).
 *
 * ## Rules the server keeps
 *
 * - Blind marking: nothing a marker receives names the student (no name, e-mail, school,
 *   county, team code; `studentId` is null for them), and an answer's pages are named
 *   `page-01.png`…; each answer has an anonymous `code`. A reviewer sees the other reviewer's
 *   mark (and the final score) only once they have given theirs. Lists are ordered by test,
 *   question and code, never by name.
 * - A mark is 0 to the item's points in the phase's `markStep` (0.5 by default), a decimal
 *   number; otherwise 400 CLIENT_ERROR `{ reviewerScore: ['out_of_range' | 'not_in_step'] }`.
 *   Ticked rubric criteria (`criteria`) must add up to the mark (`{ criteria: ['score_sum'] }`).
 * - A reviewer may correct their mark until the second mark arrives; then the entry is
 *   decided: final = the average of the two marks (rounded to hundredths) when they differ by
 *   at most the phase's `mediationThreshold` × the item's points, else it waits for the
 *   question's mediator, whose mark is final. 409 `REVIEW_CLOSED` when the entry no longer
 *   takes that write.
 * - Optimistic concurrency: send back the entry's `version`; a stale one gets 409
 *   `REVIEW_CHANGED` and nothing changes (the second of two tabs). Without `version` the
 *   write is taken as it is.
 * - Appeals: once per item, while the phase's appeal window is open, on an item with a final
 *   score (409 `APPEAL_NOT_ALLOWED`, `details.reason` `window` | `already_appealed` |
 *   `no_final_score`). An item people marked is marked again by two teachers of the question
 *   who did not mark it the first time (nor are the student's coordinating teacher), with the
 *   same threshold and a mediator who did not mark it either; the result is final and may be
 *   lower, but stays the original when the paper's score would move by less than the phase's
 *   `appealMinPoints`: the student's re-marked items of one test are summed (a second appeal
 *   on the paper may turn the first one's outcome either way). An item scored from the key (or with nothing handed in) goes to the
 *   exam's admins (`COMMITTEE_ITEMS`): they correct the key (preview, then apply: every
 *   attempt rescored in one transaction) or close it with a decision.
 * - Every mark, mediation, decision and key fix is an audit event; a final score that changes
 *   updates the totals at once and the student is told by e-mail (also when a test's result
 *   becomes complete).
 *
 * ## Files
 *
 * One file per part of the contract (reviews/): the enums and limits with the marking rules
 * both sides apply, the requests, and the answers of marking, appeals, a teacher's phases,
 * staff and the student.
 */

export * from './reviews/appeals.js';
export * from './reviews/markers.js';
export * from './reviews/marking.js';
export * from './reviews/requests.js';
export * from './reviews/rules.js';
export * from './reviews/staff.js';
export * from './reviews/student.js';
