// The addresses an account gets when it is deleted or anonymised. They free the real address
// (unique index) for a new sign-up, and `.invalid` is a top-level domain no mailbox can have
// (RFC 2606), so no identity provider or mail can ever prove one of them.

export const PLACEHOLDER_DOMAIN = 'podium.invalid';

/** `deleted+{id}@podium.invalid` or `anonim+{id}@podium.invalid`. */
export const placeholderEmail = (kind: 'deleted' | 'anonim', id: string) =>
  `${kind}+${id}@${PLACEHOLDER_DOMAIN}`;

/** Whether an address is one of the placeholders (any case, as typed or asserted). */
export const isPlaceholderEmail = (email: string) =>
  email.trim().toLowerCase().endsWith(`@${PLACEHOLDER_DOMAIN}`);

/** The address of every anonymised account, as a LIKE pattern for SQL. */
export const ANONYMISED_EMAIL_LIKE = `anonim+%@${PLACEHOLDER_DOMAIN}`;
