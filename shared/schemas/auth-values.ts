/**
 * Plain values of sign-in that the pages every student loads need (the API client, the sign-in
 * page) without the auth schemas, whose zod they would bring along.
 */

/**
 * Why a school (OpenID Connect) sign-in did not finish: the callback sends the browser back
 * to the sign-in page with `?oidcError=<reason>`, which the page translates.
 */
export const OIDC_ERROR_REASONS = [
  /** The person cancelled at the provider. */
  'cancelled',
  /** The provider gave no e-mail address, or one it does not vouch for. */
  'unverified',
  /** The provider did not answer (down, or too slow). */
  'unavailable',
  /** The attempt is unknown, used or older than 10 minutes. */
  'expired',
  /** The callback was not for this browser, was changed on the way, or was refused. */
  'failed',
] as const;
export type OidcErrorReason = (typeof OIDC_ERROR_REASONS)[number];

/** The header a browser sends its random token in, so that a known browser is recognised. */
export const DEVICE_HEADER = 'podium-device';
