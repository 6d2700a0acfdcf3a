import { useMediaQuery } from '@mui/material';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { Settings } from '../../../../shared/schemas/users.js';
import { DEFAULT_SETTINGS } from '../../../../shared/schemas/users-values.js';
import { patchProfile } from '../../api/profile.js';
import { useAuth } from '../../lib/auth.js';
import { effectiveDirection, languageDirection } from '../../lib/direction.js';
import { readLocal, STORAGE_KEYS, writeLocal } from '../../lib/storage.js';

type SettingsContextValue = {
  settings: Settings;
  shortcuts: string[];
  /** Where changes go: this device for guests, the profile for signed-in users. */
  savedTo: 'device' | 'profile';
  update(patch: Partial<Settings>): void;
  reset(): void;
  toggleShortcut(path: string): void;
};

const SettingsContext = createContext<SettingsContextValue | null>(null);

const clean = (value: unknown): Partial<Settings> => {
  if (!value || typeof value !== 'object') return {};
  const out: Partial<Settings> = {};
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
    if (typeof v[key] === typeof DEFAULT_SETTINGS[key]) Object.assign(out, { [key]: v[key] });
  }
  return out;
};

export function SettingsProvider({ children }: { children: ReactNode }) {
  const { user, setUser } = useAuth();
  const [local, setLocal] = useState<Partial<Settings>>(() =>
    clean(readLocal(STORAGE_KEYS.settings, {})),
  );
  const [localShortcuts, setLocalShortcuts] = useState<string[]>(() => {
    const s = readLocal<unknown>(STORAGE_KEYS.shortcuts, []);
    return Array.isArray(s) ? s.filter((x): x is string => typeof x === 'string') : [];
  });
  const userRef = useRef(user);
  userRef.current = user;

  // Until someone picks a theme, the screens follow the device's light or dark preference.
  const prefersDark = useMediaQuery('(prefers-color-scheme: dark)', { noSsr: true });
  const { i18n } = useTranslation();
  const settings: Settings = useMemo(() => {
    const saved = { ...local, ...clean(user?.data.settings) };
    return {
      ...DEFAULT_SETTINGS,
      theme: prefersDark ? 'dark' : 'light',
      ...saved,
      // SPEC.md §1: the language's direction, unless one was picked in the settings panel.
      direction: effectiveDirection(saved.direction, i18n.language),
    };
  }, [local, user, prefersDark, i18n.language]);
  const shortcuts = user ? (user.data.shortcuts ?? []) : localShortcuts;

  const save = useCallback(
    (data: { settings?: Partial<Settings>; shortcuts?: string[] }) => {
      const current = userRef.current;
      if (!current) return;
      // Optimistic: the screen changes at once; the profile answer confirms it.
      setUser({
        ...current,
        data: {
          ...current.data,
          ...(data.shortcuts ? { shortcuts: data.shortcuts } : {}),
          settings: { ...current.data.settings, ...data.settings },
        },
      });
      patchProfile(current.email, { data })
        .then(setUser)
        .catch(() => setUser(current));
    },
    [setUser],
  );

  const update = useCallback(
    (patch: Partial<Settings>) => {
      if (userRef.current) {
        save({ settings: patch });
      } else {
        setLocal((prev) => {
          const next = { ...prev, ...patch };
          writeLocal(STORAGE_KEYS.settings, next);
          return next;
        });
      }
    },
    [save],
  );

  // Back to the defaults, the direction back to the language's.
  const reset = useCallback(
    () => update({ ...DEFAULT_SETTINGS, direction: languageDirection(i18n.language) }),
    [update, i18n.language],
  );

  const toggleShortcut = useCallback(
    (path: string) => {
      const toggle = (list: string[]) =>
        list.includes(path) ? list.filter((p) => p !== path) : [...list, path].slice(-20);
      const current = userRef.current;
      if (current) {
        save({ shortcuts: toggle(current.data.shortcuts ?? []) });
      } else {
        setLocalShortcuts((prev) => {
          const next = toggle(prev);
          writeLocal(STORAGE_KEYS.shortcuts, next);
          return next;
        });
      }
    },
    [save],
  );

  useEffect(() => {
    document.documentElement.dir = settings.direction;
  }, [settings.direction]);

  const value = useMemo(
    () => ({
      settings,
      shortcuts,
      savedTo: user ? ('profile' as const) : ('device' as const),
      update,
      reset,
      toggleShortcut,
    }),
    [settings, shortcuts, user, update, reset, toggleShortcut],
  );
  return <SettingsContext.Provider value={value}>{children}</SettingsContext.Provider>;
}

export function useSettings(): SettingsContextValue {
  const ctx = useContext(SettingsContext);
  if (!ctx) throw new Error('useSettings outside SettingsProvider');
  return ctx;
}
