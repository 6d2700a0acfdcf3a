import { randomInt } from 'node:crypto';

/**
 * Picks `count` distinct teachers of a question's pool for one answer: never one in `exclude`
 * (already marking it, marked or mediated it the first time, or — the conflict rule — the
 * student's own coordinating teacher and their team); those in `avoid` (the question's
 * mediator) only when the pool has nobody else; among the
 * rest the least loaded first, then in the pool's order. `load` is counted up for each pick,
 * so a run over many answers spreads them evenly.
 */
export function pickReviewers(
  pool: readonly string[],
  load: Map<string, number>,
  exclude: ReadonlySet<string>,
  avoid: ReadonlySet<string>,
  count: number,
): string[] {
  const open = pool.filter((id, i) => !exclude.has(id) && pool.indexOf(id) === i);
  const byLoad = (ids: string[]) =>
    [...ids].sort(
      (a, b) => (load.get(a) ?? 0) - (load.get(b) ?? 0) || open.indexOf(a) - open.indexOf(b),
    );
  const ordered = [
    ...byLoad(open.filter((id) => !avoid.has(id))),
    ...byLoad(open.filter((id) => avoid.has(id))),
  ];
  const picked = ordered.slice(0, count);
  for (const id of picked) load.set(id, (load.get(id) ?? 0) + 1);
  return picked;
}

/** Letters and digits no one confuses when reading a code aloud (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** An anonymous answer code markers know an answer by (`K7P-2QX`), never derived from a name. */
export function anonymousCode(): string {
  let code = '';
  for (let i = 0; i < 6; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return `${code.slice(0, 3)}-${code.slice(3)}`;
}

/** The teachers a student's answer should avoid: the coordinating teacher and their team. */
export function conflictsOf(
  student: { teacherRef: string | null; teamCode: string | null } | undefined,
  teacherCodes: ReadonlyMap<string, string | null>,
  pool: readonly string[],
): Set<string> {
  const avoid = new Set<string>();
  if (!student) return avoid;
  for (const id of pool) {
    const code = teacherCodes.get(id) ?? null;
    if (id === student.teacherRef || (student.teamCode !== null && code === student.teamCode)) {
      avoid.add(id);
    }
  }
  return avoid;
}
