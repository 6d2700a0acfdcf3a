import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../api/client.js';

/**
 * Puts a failed call's field errors on the form (SPEC.md §5: codes shown as `error_<code>`).
 * Returns false when there was nothing to put on a field, so the caller shows a message.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly string[],
): boolean {
  if (!(error instanceof ApiError)) return false;
  let placed = false;
  for (const [field, codes] of Object.entries(error.fieldErrors)) {
    if (!fields.includes(field) || codes.length === 0) continue;
    setError(field as Path<T>, { type: 'server', message: codes[0] }, { shouldFocus: !placed });
    placed = true;
  }
  return placed;
}
