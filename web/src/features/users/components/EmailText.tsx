/** An e-mail address that may wrap after the `@` rather than overflow a narrow column. */
export function EmailText({ email }: { email: string | null | undefined }) {
  if (!email) return null;
  const at = email.indexOf('@');
  if (at < 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  );
}
