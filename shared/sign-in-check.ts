import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH } from './constants.js';
import { EMAIL_RE, isSingleLineText } from './text-input.js';

/**
 * The sign-in form's own check, without zod: zod would come with the sign-in page, about a
 * quarter of every student's first load. It gives the field codes of shared/schemas/auth.ts's
 * `loginSchema` (which the server applies), the first of each field in the same order, and the
 * same cleaned e-mail; sign-in-check.test.ts holds the two equal over many inputs.
 */
export type SignInInput = { email: string; password: string };
export type SignInIssues = Partial<Record<keyof SignInInput, string>>;

function emailIssue(email: string): string | undefined {
  if (!email) return 'required';
  if (email.length > MAX_EMAIL_LENGTH) return 'too_long';
  if (!EMAIL_RE.test(email)) return 'invalid_email';
  if (!isSingleLineText(email)) return 'invalid_characters';
  return undefined;
}

function passwordIssue(password: string): string | undefined {
  if (!password) return 'required';
  if (password.length > MAX_PASSWORD_LENGTH) return 'too_long';
  return undefined;
}

/** The cleaned values (e-mail trimmed, lower case), or each field's first problem. */
export function checkSignIn(
  input: Partial<Record<keyof SignInInput, unknown>>,
): { values: SignInInput } | { issues: SignInIssues } {
  const email = typeof input.email === 'string' ? input.email.trim().toLowerCase() : undefined;
  const password = typeof input.password === 'string' ? input.password : undefined;
  const issues: SignInIssues = {};
  const emailProblem = email === undefined ? 'required' : emailIssue(email);
  const passwordProblem = password === undefined ? 'required' : passwordIssue(password);
  if (emailProblem) issues.email = emailProblem;
  if (passwordProblem) issues.password = passwordProblem;
  if (email === undefined || password === undefined || emailProblem || passwordProblem) {
    return { issues };
  }
  return { values: { email, password } };
}
