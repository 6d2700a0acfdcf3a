import { useCallback, useMemo } from 'react';
import { ApiError } from '../../api/client.js';
import { useSnackbar } from '../../lib/snackbar.js';

/**
 * Codes that say more than an operation's own failure message (SPEC.md §8): the user should
 * learn that they lack the rights or that the phase is closed, not just that it failed.
 */
const TELLING_CODES = new Set([
  'OPERATION_NOT_PERMITTED',
  'NOT_FOUND',
  'PHASE_CLOSED',
  'REGISTRATION_CLOSED',
  'STUDENT_HAS_RESULTS',
  'EXAM_HAS_EDITIONS',
  'OVERLAPPING_PHASE_DATES',
  'INVALID_PHASE_DATES',
  'PHASE_NOT_CLOSED',
  'NEXT_PHASE_STARTED',
  'STUDENTS_ADVANCED',
]);

/** Success and failure snackbars of the competition screens. */
export function useReport() {
  const { notify } = useSnackbar();
  const success = useCallback(
    (key: string, values?: Record<string, unknown>) => {
      notify(key, 'success', values);
    },
    [notify],
  );
  /** The operation's failure key (e.g. `msg_create_phase_error`), or a more telling code. */
  const failure = useCallback(
    (error: unknown, key: string) => {
      if (error instanceof ApiError && TELLING_CODES.has(error.code)) {
        notify(`errors.${error.code}`, 'error');
      } else {
        notify(key, 'error');
      }
    },
    [notify],
  );
  return useMemo(() => ({ success, failure }), [success, failure]);
}

/** SPEC.md §4: a bulk call over students failed when `failedStudents` is not empty. */
export const hasFailures = (answer: { failedStudents: readonly string[] }) =>
  answer.failedStudents.length > 0;
