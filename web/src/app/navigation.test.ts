import { describe, expect, it } from 'vitest';
import { canSee, flatPages, NAVIGATION, searchPages, visibleNavigation } from './navigation.js';

const paths = (role?: 'student' | 'teacher' | 'admin') =>
  flatPages(visibleNavigation(role)).map((p) => p.path);

describe('navigation', () => {
  it('shows each role the menu of SPEC.md §2', () => {
    expect(paths('student')).toEqual(['/tests', '/test/inscriere', '/profil', '/ajutor']);
    expect(paths('teacher')).toEqual(['/profesori', '/elevi', '/examene', '/profil', '/ajutor']);
    // Admins also see the sign-in limits and the mail outbox, which are not in SPEC.md's menu.
    expect(paths('admin')).toEqual([
      '/profesori',
      '/elevi',
      '/limite-conectare',
      '/examene',
      '/profil',
      '/emailuri',
      '/ajutor',
    ]);
    expect(paths(undefined)).toEqual(['/ajutor']);
  });

  it('shows "To mark" only to teachers and admins who mark somewhere', () => {
    const withMarks = (role: 'student' | 'teacher' | 'admin') =>
      flatPages(visibleNavigation(role, NAVIGATION, { marks: true })).map((p) => p.path);
    expect(withMarks('teacher')).toEqual([
      '/profesori',
      '/elevi',
      '/examene',
      '/de-corectat',
      '/profil',
      '/ajutor',
    ]);
    expect(withMarks('admin')).toContain('/de-corectat');
    expect(withMarks('student')).not.toContain('/de-corectat');
    expect(paths('teacher')).not.toContain('/de-corectat');
  });

  it('keeps the Users group only with its children', () => {
    expect(visibleNavigation('student').find((i) => i.id === 'users')).toBeUndefined();
    expect(visibleNavigation('teacher').find((i) => i.id === 'users')?.children).toHaveLength(2);
    expect(visibleNavigation('admin').find((i) => i.id === 'users')?.children).toHaveLength(3);
  });

  it('reads an empty role list as guests only and no list as everyone', () => {
    expect(canSee({ roles: [] }, undefined)).toBe(true);
    expect(canSee({ roles: [] }, 'student')).toBe(false);
    expect(canSee({}, 'teacher')).toBe(true);
    expect(canSee({ roles: ['admin'] }, undefined)).toBe(false);
  });

  it('searches titles without case or diacritics, at most ten results', () => {
    const pages = flatPages(NAVIGATION);
    const ro: Record<string, string> = {
      teachers: 'Profesori',
      students: 'Elevi',
      'sign-up': 'Înscriere la concursuri',
    };
    const title = (p: { id: string }) => ro[p.id] ?? p.id;
    expect(searchPages(pages, title, 'INSCRIERE').map((p) => p.id)).toEqual(['sign-up']);
    expect(searchPages(pages, title, 'prof').map((p) => p.id)).toEqual(['teachers', 'profile']);
    const many = Array.from({ length: 30 }, (_, i) => ({
      id: `p${i}`,
      titleKey: 'x',
      icon: 'x',
      path: `/p${i}`,
    }));
    expect(searchPages(many, () => 'pagina', 'pag')).toHaveLength(10);
  });
});
