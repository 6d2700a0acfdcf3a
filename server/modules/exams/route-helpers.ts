import { guard } from '../../lib/auth-guard.js';

export const TAGS = ['exam-mgmt'];
export { editionParams, examParams, phaseParams } from '../../lib/route-params.js';

/** Teachers and admins; what each may do is decided per competition (exams.policy.ts). */
export const staffGuard = () => guard({ roles: ['teacher', 'admin'] });

/**
 * Registers a route under `url` and, hidden from the docs, under its twin with or without the
 * trailing slash: SPEC.md §7 writes some paths with one (`POST /exams/`) and clients differ.
 */
export function withSlashTwin(url: string, register: (url: string, hide: boolean) => void) {
  register(url, false);
  register(url.endsWith('/') ? url.slice(0, -1) : `${url}/`, true);
}
