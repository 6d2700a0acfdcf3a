import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH } from './constants.js';
import { loginSchema } from './schemas/auth.js';
import { checkSignIn } from './sign-in-check.js';

/** What loginSchema says: the cleaned values, or the first issue of each field. */
function bySchema(input: unknown) {
  const parsed = loginSchema.safeParse(input);
  if (parsed.success) return { values: parsed.data };
  const issues: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0]);
    issues[field] ??= issue.message;
  }
  return { issues };
}

const emails = fc.oneof(
  fc.emailAddress(),
  fc.emailAddress().map((e) => ` ${e.toUpperCase()}\t`),
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom(
    '',
    '   ',
    'a@b',
    'a@b.ro',
    'Ana@Scoala.RO',
    'ana maria@scoala.ro',
    'ana\u202E@scoala.ro',
    'ana@scoala.ro\u0000',
    `${'a'.repeat(MAX_EMAIL_LENGTH)}@b.ro`,
  ),
);
const passwords = fc.oneof(
  fc.string(),
  fc.constantFrom('', ' ', 'x'.repeat(MAX_PASSWORD_LENGTH), 'x'.repeat(MAX_PASSWORD_LENGTH + 1)),
);

describe('the sign-in form check', () => {
  it('agrees with loginSchema, the server check, on the cleaned values and every field code', () => {
    fc.assert(
      fc.property(emails, passwords, (email, password) => {
        expect(checkSignIn({ email, password })).toEqual(bySchema({ email, password }));
      }),
      { numRuns: 2000 },
    );
  });

  it('says `required` for a missing field, as the schema does', () => {
    expect(checkSignIn({})).toEqual(bySchema({}));
    expect(checkSignIn({ email: 'ana@scoala.ro' })).toEqual({ issues: { password: 'required' } });
  });
});
