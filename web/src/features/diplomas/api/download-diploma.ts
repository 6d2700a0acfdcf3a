import { useMutation } from '@tanstack/react-query';
import type { DiplomaRequest } from '../../../../../shared/schemas/diplomas.js';
import { apiBlob } from '../../../api/client.js';

/**
 * POST /diploma-generator/diplomas: the PDF. 403 when the caller may not have it (SPEC.md §8
 * msg_no_rights_download_diploma), 409 RESULTS_NOT_FINAL while the phase is open.
 */
export const downloadDiploma = (ids: Omit<DiplomaRequest, 'callbackUrl'>, userType: string) =>
  apiBlob('/diploma-generator/diplomas', {
    method: 'POST',
    // SPEC.md §7: the site origin plus '/' plus the user type (accepted, not used for links).
    body: { ...ids, callbackUrl: `${window.location.origin}/${userType}` },
  });

export const useDownloadDiploma = () =>
  useMutation({
    mutationFn: ({
      ids,
      userType,
    }: {
      ids: Omit<DiplomaRequest, 'callbackUrl'>;
      userType: string;
    }) => downloadDiploma(ids, userType),
  });
