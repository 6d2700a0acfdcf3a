/**
 * An operation's id from its method and its path inside its service: `GET /exams` (of
 * exam-mgmt) → `getExams`, `GET /exams/{examId}` → `getExam`,
 * `PUT …/phases/{phaseId}/finish` → `putExamEditionPhaseFinish`. A word followed by an id
 * names one of them (singular); the ids themselves leave no trace. Stable as long as the
 * method and path are; a route whose path reads the same as another's sets its own
 * `operationId` (a test checks every id is unique).
 */
export function operationIdOf(method: string, path: string): string {
  const segments = path.split('/').filter(Boolean);
  const words: string[] = [];
  segments.forEach((segment, i) => {
    if (isParam(segment)) return;
    const next = segments[i + 1];
    words.push(next !== undefined && isParam(next) ? singular(segment) : segment);
  });
  return method.toLowerCase() + words.map(pascal).join('');
}

const isParam = (segment: string) => segment.startsWith(':') || segment.startsWith('{');

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  return word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;
}

const pascal = (word: string) =>
  word
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
