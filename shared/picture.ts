/**
 * A profile picture is an address the browser loads on every screen of the person and of
 * whoever lists them, so only a plain `https:` image address is kept: no `javascript:`, no
 * `data:` (arbitrary content in any size), no `http:` (mixed content, tracking on the
 * network), no credentials in the address. Podium stores no pictures of its own.
 */
export const MAX_PICTURE_URL_LENGTH = 500;

/** The address when it is a safe picture address, else null (shown as the default avatar). */
export function safePictureUrl(value: string | null | undefined): string | null {
  if (typeof value !== 'string' || value.length > MAX_PICTURE_URL_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password || !url.hostname) return null;
  return value;
}
