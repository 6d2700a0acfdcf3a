import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { LoadingScreen } from '../components/LoadingScreen.js';
import { type Access, mayEnter } from '../lib/access.js';
import { useAuth } from '../lib/auth.js';

/** Renders the route or sends the user to `/` (SPEC.md §2); waits for the auth check first. */
export function Guard({ access, children }: { access: Access; children: ReactNode }) {
  const { status, user } = useAuth();
  if (status === 'checking') return <LoadingScreen />;
  return mayEnter(user, access) ? children : <Navigate to="/" replace />;
}
