import { describe, expect, it } from 'vitest';
import {
  canSee,
  currentPage,
  flatPages,
  hidesExams,
  NAVIGATION,
  searchPages,
  visibleNavigation,
} from './navigation.js';

const paths = (role?: 'student' | 'teacher' | 'admin') =>
  flatPages(visibleNavigation(role)).map((p) => p.path);

describe('navigation', () => {
  it('shows each role the menu of SPEC.md §2', () => {
    expect(paths('student')).toEqual(['/tests', '/test/inscriere', '/profil', '/ajutor']);
    // Teachers also find their diplomas and their students' (a page no menu reached).
    expect(paths('teacher')).toEqual([
      '/profesori',
      '/elevi',
      '/examene',
      '/diploma/teacher',
      '/profil',
      '/ajutor',
    ]);
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

  it('hides "Competitions" from a teacher who sees none (a plain marker)', () => {
    const marker = flatPages(
      visibleNavigation('teacher', NAVIGATION, { marks: true, noExams: true }),
    ).map((p) => p.path);
    expect(marker).toEqual([
      '/profesori',
      '/elevi',
      '/de-corectat',
      '/diploma/teacher',
      '/profil',
      '/ajutor',
    ]);
  });

  it('keeps "Competitions" out until the home has said whether the person sees one', () => {
    // Asked, not answered yet: a teacher may be a plain marker, so the entry waits.
    expect(hidesExams('teacher', true, undefined)).toBe(true);
    expect(hidesExams('teacher', true, 0)).toBe(true);
    expect(hidesExams('teacher', true, 2)).toBe(false);
    // An admin always has it; a home that failed leaves it to the role.
    expect(hidesExams('admin', true, undefined)).toBe(false);
    expect(hidesExams('teacher', false, undefined)).toBe(false);
  });

  it('shows "To mark" only to teachers and admins who mark somewhere', () => {
    const withMarks = (role: 'student' | 'teacher' | 'admin') =>
      flatPages(visibleNavigation(role, NAVIGATION, { marks: true })).map((p) => p.path);
    expect(withMarks('teacher')).toEqual([
      '/profesori',
      '/elevi',
      '/examene',
      '/de-corectat',
      '/diploma/teacher',
      '/profil',
      '/ajutor',
    ]);
    expect(withMarks('admin')).toContain('/de-corectat');
    expect(withMarks('student')).not.toContain('/de-corectat');
    expect(paths('teacher')).not.toContain('/de-corectat');
  });

  it('marks the page the user is on, a marker\'s lists under a phase as "To mark"', () => {
    const marker = flatPages(visibleNavigation('teacher', NAVIGATION, { marks: true }));
    const staff = flatPages(visibleNavigation('teacher'));
    const at = (pages: typeof marker, path: string) => currentPage(path, pages)?.id;
    const phase = '/examene/e1/editii/d1/phases/p1';
    expect(at(marker, `${phase}/corectare`)).toBe('to-mark');
    expect(at(marker, `${phase}/corectare/r1`)).toBe('to-mark');
    expect(at(marker, `${phase}/contestatii`)).toBe('to-mark');
    expect(at(marker, `${phase}/progres-corectare`)).toBe('exams');
    expect(at(marker, phase)).toBe('exams');
    expect(at(marker, '/de-corectat')).toBe('to-mark');
    // Without the menu entry, the lists stay under Competitions.
    expect(at(staff, `${phase}/corectare`)).toBe('exams');
    expect(at(staff, '/profesori')).toBe('teachers');
    expect(at(staff, '/profesorix')).toBeUndefined();
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
