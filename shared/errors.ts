/**
 * Error codes the server sends (SPEC.md §8). The server never sends sentences meant for users:
 * clients translate these codes, and field codes become `error_<code>` message keys.
 */
export const ERROR_CODES = [
  'CLIENT_ERROR',
  'VALIDATION_FAILED',
  'GENERAL_ERROR',
  'NOT_FOUND',
  'UNAUTHORIZED',
  'OPERATION_NOT_PERMITTED',
  'TOO_MANY_ATTEMPTS',
  'INVALID_CREDENTIALS',
  'EMAIL_NOT_CONFIRMED',
  'INVALID_CODE',
  'ALREADY_REGISTERED',
  'TEST_NOT_ACTIVE',
  'TEST_ALREADY_REVIEWED',
  'TEACHER_CODE_NOT_PROVIDED',
  'TEACHER_CODE_NOT_FOUND',
  'OVERLAPPING_PHASE_DATES',
  'INVALID_PHASE_DATES',
  'INVALID_TEST_DATE',
  'TEST_ALREADY_EXISTS',
  'INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS',
  'EDITION_PHASE_NOT_CREATED',
  'INSUFFICIENT_TEST_ITEMS_FOR_CRITERIA',
  'FILE_TYPE_NOT_ALLOWED',
  'FILE_TOO_LARGE',
  'FILE_TYPE_HEIC',
  'ANSWER_TOO_LARGE',
  'OIDC_NOT_CONFIGURED',
  'OIDC_FAILED',
  'EXAM_HAS_EDITIONS',
  'PHASE_CLOSED',
  'REGISTRATION_CLOSED',
  'STUDENT_HAS_RESULTS',
  'USER_HAS_RESULTS',
  'QUESTION_IN_TEST',
  'TEST_HAS_ATTEMPTS',
  'PDF_UNAVAILABLE',
  'PDF_BUSY',
  'INVALID_MULTIPART',
  'SPREADSHEET_TOO_LARGE',
  'ANSWER_KEY_SHOWN',
  'RESULTS_INCOMPLETE',
  'ITEM_ALREADY_MARKED',
  'RULES_OUTCOME_CHANGED',
  'SECTOR_MISSING',
  'RESULTS_NOT_FINAL',
  'DIPLOMA_JOB_NOT_READY',
  'TESTS_STILL_RUNNING',
  'REVIEW_CHANGED',
  'REVIEW_CLOSED',
  'CONFLICT_OF_INTEREST',
  'APPEAL_NOT_ALLOWED',
  'STORAGE_UNAVAILABLE',
  'PAPER_IMAGE_MISSING',
  'QUERY_TIMEOUT',
  'DATABASE_UNAVAILABLE',
  'URL_TOO_LONG',
  'RANKING_UPDATING',
  'JOB_ALREADY_RUNNING',
  'DIPLOMA_JOBS_STORAGE_FULL',
  'PHASE_NOT_CLOSED',
  'NEXT_PHASE_STARTED',
  'STUDENTS_ADVANCED',
  'DIPLOMA_NOT_STALE',
  'PAPER_JOB_NOT_READY',
  'SCAN_OFFSET_MISMATCH',
  'SCAN_PAGE_NOT_WAITING',
  'SCAN_PAGE_TAKEN',
  'SCAN_PAGES_WAITING',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** HTTP status for each code; one table, used by the server's single error handler. */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  CLIENT_ERROR: 400,
  VALIDATION_FAILED: 400,
  GENERAL_ERROR: 500,
  NOT_FOUND: 404,
  UNAUTHORIZED: 401,
  OPERATION_NOT_PERMITTED: 403,
  TOO_MANY_ATTEMPTS: 429,
  INVALID_CREDENTIALS: 400,
  EMAIL_NOT_CONFIRMED: 403,
  INVALID_CODE: 400,
  ALREADY_REGISTERED: 409,
  TEST_NOT_ACTIVE: 409,
  TEST_ALREADY_REVIEWED: 409,
  TEACHER_CODE_NOT_PROVIDED: 400,
  TEACHER_CODE_NOT_FOUND: 400,
  OVERLAPPING_PHASE_DATES: 400,
  INVALID_PHASE_DATES: 400,
  INVALID_TEST_DATE: 400,
  TEST_ALREADY_EXISTS: 409,
  INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS: 409,
  EDITION_PHASE_NOT_CREATED: 409,
  INSUFFICIENT_TEST_ITEMS_FOR_CRITERIA: 409,
  FILE_TYPE_NOT_ALLOWED: 415,
  FILE_TOO_LARGE: 413,
  FILE_TYPE_HEIC: 415,
  ANSWER_TOO_LARGE: 413,
  OIDC_NOT_CONFIGURED: 404,
  OIDC_FAILED: 400,
  EXAM_HAS_EDITIONS: 409,
  PHASE_CLOSED: 409,
  REGISTRATION_CLOSED: 409,
  STUDENT_HAS_RESULTS: 409,
  USER_HAS_RESULTS: 409,
  QUESTION_IN_TEST: 409,
  TEST_HAS_ATTEMPTS: 409,
  PDF_UNAVAILABLE: 503,
  /** More papers waiting to be printed than the server takes: try again after `retryAfter`. */
  PDF_BUSY: 503,
  INVALID_MULTIPART: 400,
  SPREADSHEET_TOO_LARGE: 413,
  /** A reopen once a student of the test has seen its answer key. */
  ANSWER_KEY_SHOWN: 409,
  /** Admission by rule while items await marking or attempts still run (details say how many). */
  RESULTS_INCOMPLETE: 409,
  /** Changing an item's worth once people have marked one of its answers. */
  ITEM_ALREADY_MARKED: 409,
  /** Applying rules whose outcome is no longer the one the dry run showed: run it again. */
  RULES_OUTCOME_CHANGED: 409,
  SECTOR_MISSING: 409,
  /** Diplomas before the phase is closed (closing makes results and prizes final). */
  RESULTS_NOT_FINAL: 409,
  /** A diploma ZIP asked for before its job is done. */
  DIPLOMA_JOB_NOT_READY: 409,
  /** Starting the review of an online phase while one of its tests is open or an attempt runs. */
  TESTS_STILL_RUNNING: 409,
  /** A mark or mediation sent with a stale `version`: the entry changed since it was read. */
  REVIEW_CHANGED: 409,
  /** The entry no longer takes this write (both marks given, mediated, appealed, decided). */
  REVIEW_CLOSED: 409,
  /** A mark, mediation or decision on the answer of the caller's own student (their
   * coordinating teacher's, or their team's): someone else does it. */
  CONFLICT_OF_INTEREST: 403,
  /** An appeal outside the window, a second one on the item, or on an item without a final
   * score (`details.reason`: window, already_appealed, no_final_score). */
  APPEAL_NOT_ALLOWED: 409,
  // The file storage did not answer (down, too slow, misconfigured): try again later.
  STORAGE_UNAVAILABLE: 503,
  // A figure of the paper is not in the storage: printing it without would mislead.
  PAPER_IMAGE_MISSING: 409,
  // A statement ran past its time limit and was stopped, nothing changed: try again (a
  // narrower filter, or in a moment).
  QUERY_TIMEOUT: 503,
  // The database is restarting, failing over or out of reach; nothing was done: try again
  // after Retry-After (the player keeps the answer and sends it again).
  DATABASE_UNAVAILABLE: 503,
  // The request line and headers together, or one path segment, past the server's limits.
  URL_TOO_LONG: 414,
  /**
   * elevi.csv of a ranking the background job is still bringing up to date (a phase too large to
   * rank within a request): try again after `retryAfter`.
   */
  RANKING_UPDATING: 503,
  /**
   * Another diploma ZIP of the same person and phase still waits or runs (`details.jobId`); the
   * same request again gets that job instead.
   */
  JOB_ALREADY_RUNNING: 409,
  /** The kept diploma archives fill DIPLOMA_JOBS_MAX_MB: try again after `retryAfter`. */
  DIPLOMA_JOBS_STORAGE_FULL: 503,
  /** Reopening a phase that is open: only a closed phase can be reopened. */
  PHASE_NOT_CLOSED: 409,
  /** Reopening a phase after a later phase of its edition started (`details.phaseId`). */
  NEXT_PHASE_STARTED: 409,
  /** Reopening a phase whose admitted students were already enrolled in the next phase
   * (`details.phaseId`, `details.count`). */
  STUDENTS_ADVANCED: 409,
  /** Reissuing a diploma whose printed result did not change: it stays in force. */
  DIPLOMA_NOT_STALE: 409,
  /** A booklets PDF asked for before its job is done. */
  PAPER_JOB_NOT_READY: 409,
  /** A scan chunk sent from another offset than the bytes received (`details.received`). */
  SCAN_OFFSET_MISMATCH: 409,
  /** A scanned page matched or set aside that is no longer waiting (another person did). */
  SCAN_PAGE_NOT_WAITING: 409,
  /** A page matched to a student's booklet page that is already stored. */
  SCAN_PAGE_TAKEN: 409,
  /** A hybrid phase's review started while scanned pages wait to be matched (`details.waiting`). */
  SCAN_PAGES_WAITING: 409,
};

/** Field-level codes (the client shows `error_<code>`). */
export const FIELD_CODES = [
  'required',
  'too_short',
  'too_long',
  'invalid',
  'invalid_email',
  'invalid_date',
  'not_number',
  'not_positive',
  'presence',
  'teacher_not_found',
  'code_exists',
  'test_grade_duplicate',
  'password_too_short',
  'password_too_common',
  /** A character the field cannot hold: NUL or a broken surrogate anywhere, a control or
   * bidirectional character in a single-line field (shared/text-input.ts). */
  'invalid_characters',
  /** A picture address that is not a plain https:// one (shared/picture.ts). */
  'url_not_https',
  /** A formula nested deeper, or formulas longer, than statements may hold (shared/statement.ts). */
  'formula_too_deep',
  'formula_too_long',
  /** Items' points that do not add up to the test's total. */
  'score_sum',
  /** A mark below 0 or above the item's points. */
  'out_of_range',
  /** A mark that is not a multiple of the phase's step (0.5 by default). */
  'not_in_step',
  /** A teacher named for a student's answer who coordinates the student or is of their team. */
  'conflict',
  /** The current password given to change it is not the account's. */
  'wrong_password',
] as const;
export type FieldCode = (typeof FIELD_CODES)[number];

/** `CLIENT_ERROR` details: field → codes. */
export type FieldErrors = Record<string, FieldCode[]>;
/** `VALIDATION_FAILED` details: a list of code and path; the path's last segment is the field. */
export type ValidationIssue = { code: FieldCode; path: (string | number)[] };

export type ErrorBody = {
  error: { statusCode: number; code: ErrorCode; message: string; details?: unknown };
};
