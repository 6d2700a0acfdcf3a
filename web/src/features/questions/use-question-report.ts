import { useCallback, useMemo } from 'react';
import { ApiError } from '../../api/client.js';
import { useSnackbar, type Variant } from '../../lib/snackbar.js';

/** Codes that say more than an operation's own failure message. */
const TELLING_CODES = new Set([
  'NOT_FOUND',
  'PHASE_CLOSED',
  'QUESTION_IN_TEST',
  'TEST_HAS_ATTEMPTS',
  'FILE_TYPE_NOT_ALLOWED',
  'FILE_TOO_LARGE',
  'INVALID_MULTIPART',
]);

/** The message key for a failed question call: 403 is `question_insufficient_rights`. */
export function failureKey(error: unknown, fallbackKey: string): string {
  if (!(error instanceof ApiError)) return fallbackKey;
  if (error.code === 'OPERATION_NOT_PERMITTED') return 'question_insufficient_rights';
  return TELLING_CODES.has(error.code) ? `errors.${error.code}` : fallbackKey;
}

/** Snackbars of the question screens (SPEC.md §8 message keys). */
export function useQuestionReport() {
  const { notify } = useSnackbar();
  const success = useCallback(
    (key: string, values?: Record<string, unknown>) => notify(key, 'success', values),
    [notify],
  );
  const failure = useCallback(
    (error: unknown, key: string, variant: Variant = 'error') =>
      notify(failureKey(error, key), variant),
    [notify],
  );
  return useMemo(() => ({ success, failure, notify }), [success, failure, notify]);
}
