/** A date and time in the interface language ('25 nov. 2026, 09:00'). */
export function formatWhen(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    date,
  );
}

/** Option letters: 0 → 'A'. */
export const optionLetter = (index: number) => String.fromCharCode(65 + index);

/** An online answer as given: option letters ('A, C') or the typed value. */
export function submittedText(answer: number[] | string | null | undefined): string | null {
  if (answer === null || answer === undefined) return null;
  if (typeof answer === 'string') return answer;
  return answer.map(optionLetter).join(', ');
}

/** "Family Given" of a teacher, or their address when they have no name. */
export const teacherName = (p: {
  familyName: string | null;
  givenName: string | null;
  email: string;
}) => [p.familyName, p.givenName].filter(Boolean).join(' ') || p.email;

/** Read by screen readers, not shown (a column of buttons still has a header). */
export const visuallyHiddenSx = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: '1px',
} as const;
