import { guard } from '../../lib/auth-guard.js';

export const TAGS = ['exam-mgmt'];
export { editionParams, examParams, phaseParams } from '../../lib/route-params.js';

/** Teachers and admins; what each may do is decided per competition (exams.policy.ts). */
export const staffGuard = () => guard({ roles: ['teacher', 'admin'] });

/**
 * Registers a route under `url` without its trailing slash and, hidden from the docs, with it:
 * SPEC.md §7 writes some paths with one (`POST /exams/`) and clients differ; OpenAPI paths
 * end without one.
 */
export function withSlashTwin(url: string, register: (url: string, hide: boolean) => void) {
  const bare = url.endsWith('/') ? url.slice(0, -1) : url;
  register(bare, false);
  register(`${bare}/`, true);
}
