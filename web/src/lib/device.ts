import { readLocal, STORAGE_KEYS, writeLocal } from './storage.js';

/**
 * This browser's own random token, made once and kept in localStorage. Sent when signing in,
 * it lets the server recognise a browser that signed in to the account before, which is never
 * made to wait because of other people's wrong guesses (a school lab shares one address).
 */
export function deviceToken(): string {
  const kept = readLocal<string | null>(STORAGE_KEYS.device, null);
  if (typeof kept === 'string' && /^[A-Za-z0-9_-]{43,128}$/.test(kept)) return kept;
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const token = btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  writeLocal(STORAGE_KEYS.device, token);
  return token;
}
