import type { Session } from '../../../shared/schemas/auth.js';
import type { User } from '../../../shared/schemas/users.js';
import { api } from './client.js';

// The calls of the auth service that keep a session: read the signed-in user, exchange an
// e-mailed link (or the OpenID Connect return) for a session, end it.
const base = '/auth-service/auth';

export const whoami = () => api<User>(`${base}/whoami`, { quiet401: true });

/** Exchanges the uid/code of an e-mailed link (or the OIDC return) for a session. */
export const exchangeCode = (uid: string, code: string, oauth: boolean) =>
  api<Session>(
    `${base}/${oauth ? 'oauth/token' : 'token'}/${encodeURIComponent(uid)}/${encodeURIComponent(code)}`,
    { quiet401: true, device: true },
  );

export const logout = () => api<{ ok: true }>(`${base}/logout`, { method: 'POST', quiet401: true });
