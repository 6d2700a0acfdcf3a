/** Documents the sidebar and footer link to (SPEC.md §2); served from web/public/legal. */
export const TERMS_URL = '/legal/termeni-si-conditii.html';
export const PERSONAL_DATA_URL = '/legal/date-personale.html';
export const PRIVACY_URL = '/legal/date-personale.html#confidentialitate';
