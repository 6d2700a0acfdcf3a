import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { LoadingScreen } from '../../components/LoadingScreen.js';
import { useAuth } from '../../lib/auth.js';

/** /deconectare: ends the session on the server, clears all state, back to the welcome page. */
export function LogoutPage() {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  useEffect(() => {
    let alive = true;
    void signOut().then(() => alive && navigate('/', { replace: true }));
    return () => {
      alive = false;
    };
  }, [signOut, navigate]);
  return <LoadingScreen />;
}
