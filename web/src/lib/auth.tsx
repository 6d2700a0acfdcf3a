import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import { THANK_YOU_RESET_MS } from '../../../shared/constants.js';
import type { Session } from '../../../shared/schemas/auth.js';
import type { User } from '../../../shared/schemas/users.js';
import { ApiError, getSession, setSession } from '../api/client.js';
import * as authApi from '../api/session.js';

export type AuthStatus = 'checking' | 'guest' | 'user';

type AuthContextValue = {
  status: AuthStatus;
  user: User | undefined;
  /** Set when a link from the URL could not be exchanged (expired or used). */
  linkError: ApiError | undefined;
  startSession(session: Session): Promise<void>;
  setUser(user: User): void;
  /** Registration succeeded: keep the user and show the thank-you message for 3500 ms. */
  completeRegistration(user: User): void;
  thankYou: boolean;
  signOut(): Promise<void>;
};

const AuthContext = createContext<AuthContextValue | null>(null);
export const WHOAMI_KEY = ['auth', 'whoami'] as const;

/**
 * Reads `uid` and `code` from the URL once (SPEC.md §2): a path or query mentioning `oauth`
 * uses the OAuth exchange. A password-reset link (`mode=reset`) is left to the welcome page.
 */
function takeLinkFromUrl(): { uid: string; code: string; oauth: boolean } | undefined {
  const url = new URL(window.location.href);
  const uid = url.searchParams.get('uid');
  const code = url.searchParams.get('code') ?? url.searchParams.get('token');
  if (!uid || !code || url.searchParams.get('mode') === 'reset') return undefined;
  const oauth = url.href.includes('oauth');
  for (const k of ['uid', 'code', 'token', 'oauth']) url.searchParams.delete(k);
  window.history.replaceState(null, '', url.pathname + url.search + url.hash);
  return { uid, code, oauth };
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [hasSession, setHasSession] = useState(() => getSession() !== null);
  const [exchanging, setExchanging] = useState(true);
  const [linkError, setLinkError] = useState<ApiError>();

  useEffect(() => {
    const link = takeLinkFromUrl();
    if (!link) {
      setExchanging(false);
      return;
    }
    authApi
      .exchangeCode(link.uid, link.code, link.oauth)
      .then((session) => {
        setSession(session);
        setHasSession(true);
      })
      .catch((e: unknown) => setLinkError(e instanceof ApiError ? e : undefined))
      .finally(() => setExchanging(false));
  }, []);

  const whoami = useQuery({
    queryKey: WHOAMI_KEY,
    queryFn: authApi.whoami,
    enabled: hasSession && !exchanging,
    retry: false,
    staleTime: 60_000,
  });

  useEffect(() => {
    // A dead session (expired, revoked) is a guest, not an error screen.
    if (whoami.error instanceof ApiError && whoami.error.status === 401) {
      setSession(null);
      setHasSession(false);
    }
  }, [whoami.error]);

  const startSession = useCallback(
    async (session: Session) => {
      setSession(session);
      setHasSession(true);
      await queryClient.fetchQuery({ queryKey: WHOAMI_KEY, queryFn: authApi.whoami });
    },
    [queryClient],
  );

  const setUser = useCallback(
    (user: User) => queryClient.setQueryData(WHOAMI_KEY, user),
    [queryClient],
  );

  const [thankYou, setThankYou] = useState(false);
  useEffect(() => {
    if (!thankYou) return;
    const timer = setTimeout(() => setThankYou(false), THANK_YOU_RESET_MS);
    return () => clearTimeout(timer);
  }, [thankYou]);

  const completeRegistration = useCallback(
    (user: User) => {
      setUser(user);
      setThankYou(true);
    },
    [setUser],
  );

  const signOut = useCallback(async () => {
    if (getSession()) await authApi.logout().catch(() => undefined);
    setSession(null);
    setHasSession(false);
    // Logging out resets all app state (SPEC.md §4).
    queryClient.clear();
  }, [queryClient]);

  // The check ends on success or failure (SPEC.md §4): a failed check leaves a guest.
  const status: AuthStatus =
    exchanging || (hasSession && whoami.isLoading)
      ? 'checking'
      : whoami.data && hasSession
        ? 'user'
        : 'guest';

  return (
    <AuthContext.Provider
      value={{
        status,
        user: whoami.data,
        linkError,
        startSession,
        setUser,
        completeRegistration,
        thankYou,
        signOut,
      }}
    >
      {children}
    </AuthContext.Provider>
  );
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth outside AuthProvider');
  return ctx;
}
