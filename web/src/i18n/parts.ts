/**
 * Each language's strings come in two parts, so that a student's device fetches only what its
 * pages show: `core` (sign-in, the app frame, My tests, the connection check, the player, the
 * student's ranks, every error) with the first screen, and `staff` (the question bank, exams,
 * marking, people, mail…) with the first page that needs it (index.ts, `withStaffStrings`).
 * The build makes the two parts from ro.json and en.json (web/vite.config.ts), which stay one
 * file each; scripts/check-budgets.mjs fails the build when the student's path uses a `staff`
 * key.
 */

/** Top-level groups that only staff screens (or pages off the student's path) show. */
export const STAFF_GROUPS = [
  'diplomas',
  'examDay',
  'exams',
  'help',
  'mail',
  'people',
  'phaseReopen',
  'profile',
  'questionView',
  'questions',
  'result',
  'reviews',
  'tests',
  'throttles',
  'uploads',
] as const;

/** Keys of those groups that the student's path shows nonetheless: they stay in `core`. */
export const CORE_KEYS = [
  'diplomas.openFromTests',
  'reviews.home.waiting',
  'tests.gradesTitle',
] as const;

export type StringsPart = 'core' | 'staff';
type Tree = { [key: string]: string | Tree };

/** Whether the string at `path` (dotted) is one of CORE_KEYS, a plural form of one, or under one. */
const isCoreKey = (path: string) =>
  CORE_KEYS.some((key) => path === key || path.startsWith(`${key}_`) || path.startsWith(`${key}.`));

/** The part `part` of a language's strings: the same tree, holding only that part's keys. */
export function stringsPart(tree: Tree, part: StringsPart): Tree {
  const pick = (node: Tree, prefix: string, staff: boolean): Tree => {
    const out: Tree = {};
    for (const [key, value] of Object.entries(node)) {
      const path = prefix ? `${prefix}.${key}` : key;
      const inStaff = staff || (!prefix && (STAFF_GROUPS as readonly string[]).includes(key));
      if (typeof value === 'string') {
        const isStaff = inStaff && !isCoreKey(path);
        if (isStaff === (part === 'staff')) out[key] = value;
      } else {
        const sub = pick(value, path, inStaff);
        if (Object.keys(sub).length > 0) out[key] = sub;
      }
    }
    return out;
  };
  return pick(tree, '', false);
}
