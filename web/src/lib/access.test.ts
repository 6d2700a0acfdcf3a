import { describe, expect, it } from 'vitest';
import type { User } from '../../../shared/schemas/users.js';
import { mayEnter } from './access.js';

const user = (over: Partial<User>) =>
  ({ type: 'student', state: 'active', registered: true, ...over }) as User;

describe('route guard', () => {
  it('lets anyone through a route without roles', () => {
    expect(mayEnter(undefined, {})).toBe(true);
    expect(mayEnter(user({ state: 'inactive' }), {})).toBe(true);
  });

  it('turns away guests and the wrong role', () => {
    expect(mayEnter(undefined, { roles: ['student'] })).toBe(false);
    expect(mayEnter(user({ type: 'teacher' }), { roles: ['student'] })).toBe(false);
    expect(mayEnter(user({ type: 'admin' }), { roles: ['teacher', 'admin'] })).toBe(true);
  });

  it('checks the registered flag both ways and the active state', () => {
    const registration = { roles: ['student'] as const, registered: false };
    expect(mayEnter(user({ registered: false }), registration)).toBe(true);
    expect(mayEnter(user({ registered: true }), registration)).toBe(false);
    const profile = { roles: ['student', 'teacher', 'admin'] as const, active: true };
    expect(mayEnter(user({ state: 'inactive' }), profile)).toBe(false);
    expect(mayEnter(user({ state: 'active' }), profile)).toBe(true);
  });
});
