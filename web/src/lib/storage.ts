/** Typed access to localStorage that survives private mode and corrupt values. */
export function readLocal<T>(key: string, fallback: T): T {
  try {
    const raw = window.localStorage.getItem(key);
    return raw === null ? fallback : (JSON.parse(raw) as T);
  } catch {
    return fallback;
  }
}

export function writeLocal(key: string, value: unknown): void {
  try {
    if (value === undefined) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the setting lasts for this visit only.
  }
}

export const STORAGE_KEYS = {
  session: 'podium.session',
  language: 'podium.language',
  settings: 'podium.settings',
  shortcuts: 'podium.shortcuts',
  device: 'podium.device',
} as const;
