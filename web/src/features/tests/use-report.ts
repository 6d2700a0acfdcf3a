import { useCallback, useMemo } from 'react';
import { ApiError } from '../../api/client.js';
import { useSnackbar } from '../../lib/snackbar.js';

/**
 * Codes that say more than an operation's own failure message (SPEC.md §8): the user should
 * learn that they lack the rights, that the phase is closed or that PDFs cannot be made now
 * (or only in a few seconds).
 * INSUFFICIENT_TEST_ITEMS_FOR_CRITERIA is one of the codes SPEC.md shows as generic.
 */
const TELLING_CODES = new Set([
  'OPERATION_NOT_PERMITTED',
  'NOT_FOUND',
  'PHASE_CLOSED',
  'INVALID_TEST_DATE',
  'TEST_ALREADY_EXISTS',
  'INSUFFICIENT_TEST_ITEMS_FOR_CRITERIA',
  'PDF_UNAVAILABLE',
  'PDF_BUSY',
]);

/** Success, warning and failure snackbars of the test screens. */
export function useReport() {
  const { notify } = useSnackbar();
  const success = useCallback(
    (key: string, values?: Record<string, unknown>) => notify(key, 'success', values),
    [notify],
  );
  const warning = useCallback((key: string) => notify(key, 'warning'), [notify]);
  /** The operation's failure key (e.g. `msg_failed_download_test`), or a more telling code. */
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
  return useMemo(() => ({ success, warning, failure }), [success, warning, failure]);
}
