import { useMutation } from '@tanstack/react-query';
import { apiBlob } from '../../../api/client.js';
import { type TestIds, testPath } from './keys.js';

/**
 * POST …/tests/{testId}/download: the printed paper as a PDF. 403 when the caller may not
 * print it, 503 PDF_UNAVAILABLE when the server cannot print right now, 503 PDF_BUSY when it
 * has too many papers to print (try again after Retry-After).
 */
export const downloadTest = (ids: TestIds) =>
  apiBlob(`${testPath(ids)}/download`, {
    method: 'POST',
    // SPEC.md §7 names a callbackUrl; the server accepts it and does not need it.
    body: { callbackUrl: window.location.origin },
  });

export const useDownloadTest = () => useMutation({ mutationFn: downloadTest });
