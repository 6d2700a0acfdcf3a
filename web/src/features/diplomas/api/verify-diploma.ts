import { useQuery } from '@tanstack/react-query';
import type { DiplomaVerification } from '../../../../../shared/schemas/diplomas.js';
import { ApiError, api } from '../../../api/client.js';

/** GET /diploma-generator/verify/{code}: what the diploma printed (no sign-in). */
export const verifyDiploma = (code: string) =>
  api<DiplomaVerification>(`/diploma-generator/verify/${encodeURIComponent(code)}`, {
    quiet401: true,
  });

export const useVerifyDiploma = (code: string) =>
  useQuery({
    queryKey: ['diploma-verification', code.toUpperCase()],
    queryFn: () => verifyDiploma(code),
    // An unknown code stays unknown; a limit reached is said at once.
    retry: (count, error) => !(error instanceof ApiError) && count < 2,
  });
