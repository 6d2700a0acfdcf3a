import type { UserType } from '../../../shared/constants.js';

/**
 * The menu of SPEC.md §2. `roles` undefined: everyone sees the item; an empty list: only
 * guests (users without a role); otherwise the user's type must be listed.
 */
export type NavItem = {
  id: string;
  titleKey: string;
  path?: string;
  icon: string;
  roles?: readonly UserType[];
  /** Shown only when this holds for the user as well (see NavConditions). */
  when?: keyof NavConditions;
  /** Hidden when this holds for the user. */
  unless?: keyof NavConditions;
  /** Pages elsewhere in the app that belong to this item (marking lists under a phase). */
  covers?: RegExp;
  children?: readonly NavItem[];
};

/** What a menu item may need beyond the user's type, known once the app has asked. */
export type NavConditions = {
  /** The teacher grades or mediates a question somewhere (GET /test-review/my-phases). */
  marks?: boolean;
  /** The person sees no competition and may not create one (GET /home-service/home). */
  noExams?: boolean;
};

export const NAVIGATION: readonly NavItem[] = [
  {
    id: 'users',
    titleKey: 'nav.users',
    icon: 'group',
    roles: ['teacher', 'admin'],
    children: [
      {
        id: 'teachers',
        titleKey: 'nav.teachers',
        path: '/profesori',
        icon: 'school',
        roles: ['teacher', 'admin'],
      },
      {
        id: 'students',
        titleKey: 'nav.students',
        path: '/elevi',
        icon: 'person',
        roles: ['teacher', 'admin'],
      },
      {
        id: 'throttles',
        titleKey: 'nav.throttles',
        path: '/limite-conectare',
        icon: 'lock_clock',
        roles: ['admin'],
      },
    ],
  },
  {
    id: 'exams',
    titleKey: 'nav.exams',
    path: '/examene',
    icon: 'emoji_events',
    roles: ['teacher', 'admin'],
    // A plain marker has no competition: "Competitions: 0" would be a dead end.
    unless: 'noExams',
  },
  {
    id: 'to-mark',
    titleKey: 'nav.toMark',
    path: '/de-corectat',
    icon: 'rate_review',
    roles: ['teacher', 'admin'],
    when: 'marks',
    covers: /^\/examene\/[^/]+\/editii\/[^/]+\/phases\/[^/]+\/(corectare|contestatii)(\/|$)/,
  },
  {
    // A teacher's own diplomas and those of the students they coordinate (students find
    // theirs under My tests).
    id: 'diplomas',
    titleKey: 'nav.diplomas',
    path: '/diploma/teacher',
    icon: 'workspace_premium',
    roles: ['teacher'],
  },
  {
    id: 'my-tests',
    titleKey: 'nav.myTests',
    path: '/tests',
    icon: 'assignment',
    roles: ['student'],
  },
  {
    id: 'sign-up',
    titleKey: 'nav.signUpTests',
    path: '/test/inscriere',
    icon: 'how_to_reg',
    roles: ['student'],
  },
  {
    id: 'profile',
    titleKey: 'nav.profile',
    path: '/profil',
    icon: 'account_circle',
    roles: ['student', 'teacher', 'admin'],
  },
  { id: 'mail', titleKey: 'nav.mail', path: '/emailuri', icon: 'mail', roles: ['admin'] },
  { id: 'help', titleKey: 'nav.help', path: '/ajutor', icon: 'help' },
];

export function canSee(item: Pick<NavItem, 'roles'>, role: UserType | undefined): boolean {
  if (item.roles === undefined) return true;
  if (item.roles.length === 0) return role === undefined;
  return role !== undefined && item.roles.includes(role);
}

/**
 * Whether "Competitions" is left out of the menu: a plain marker sees no competition (the
 * home's `menu.exams` is 0), and until the home has answered nobody but an admin is shown it,
 * so a plain marker's menu never shows the entry for a moment and then drops it. `asked`:
 * the home is being asked and has not failed (a failed home leaves the entry to the role).
 */
export function hidesExams(
  role: UserType | undefined,
  asked: boolean,
  exams: number | undefined,
): boolean {
  if (role === 'admin') return false;
  if (exams === undefined) return asked;
  return exams === 0;
}

/** The menu a user sees: hidden items dropped, groups left without children dropped too. */
export function visibleNavigation(
  role: UserType | undefined,
  items: readonly NavItem[] = NAVIGATION,
  conditions: NavConditions = {},
): NavItem[] {
  return items.flatMap((item) => {
    if (!canSee(item, role)) return [];
    if (item.when && !conditions[item.when]) return [];
    if (item.unless && conditions[item.unless]) return [];
    if (!item.children) return [item];
    const children = visibleNavigation(role, item.children, conditions);
    return children.length ? [{ ...item, children }] : [];
  });
}

/**
 * The menu page the user is on: one whose `covers` takes the path, else the one whose path is
 * the longest start of it. A marker's list under a phase is "To mark", not "Competitions".
 */
export function currentPage(pathname: string, pages: readonly NavItem[]): NavItem | undefined {
  const covering = pages.find((p) => p.covers?.test(pathname));
  if (covering) return covering;
  const starts = (path: string) => pathname === path || pathname.startsWith(`${path}/`);
  return pages
    .filter((p) => p.path !== undefined && starts(p.path))
    .sort((a, b) => (b.path?.length ?? 0) - (a.path?.length ?? 0))[0];
}

/** Every page (leaf) a user can open from the menu, for search and shortcuts. */
export function flatPages(items: readonly NavItem[]): NavItem[] {
  return items.flatMap((item) =>
    item.children ? flatPages(item.children) : item.path ? [item] : [],
  );
}

/** Case- and diacritic-insensitive menu search (SPEC.md §9: at most 10 suggestions). */
export function searchPages(
  pages: NavItem[],
  titles: (item: NavItem) => string,
  text: string,
  max = 10,
) {
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const q = fold(text.trim());
  return pages.filter((p) => !q || fold(titles(p)).includes(q)).slice(0, max);
}
