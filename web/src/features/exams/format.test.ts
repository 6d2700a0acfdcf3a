import { describe, expect, it } from 'vitest';
import { credentialsFileName, fromLocalInput, personName, toLocalInput } from './format.js';

describe('exam screen formatting', () => {
  it('names the credentials file by the day, DD-MM-YYYY', () => {
    expect(credentialsFileName(new Date(2026, 0, 5, 13, 0))).toBe('download-cms-05-01-2026.xlsx');
  });

  it('round-trips a datetime-local value through an ISO instant', () => {
    const iso = fromLocalInput('2026-11-23T09:30');
    expect(iso).toMatch(/Z$/);
    expect(toLocalInput(iso)).toBe('2026-11-23T09:30');
    expect(fromLocalInput('2026-13-45T99:99')).toBe('');
    expect(fromLocalInput('')).toBe('');
    expect(toLocalInput(null)).toBe('');
  });

  it('names a person by family then given name, else by e-mail', () => {
    expect(personName({ familyName: 'Pop', givenName: 'Ana' })).toBe('Pop Ana');
    expect(personName({ familyName: null, givenName: null, email: 'a@b.ro' })).toBe('a@b.ro');
  });
});
