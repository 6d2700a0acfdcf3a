import { describe, expect, it } from 'vitest';
import { safePictureUrl } from './picture.js';

describe('safePictureUrl (what the screens and the API show)', () => {
  it('keeps a plain https address', () => {
    const url = 'https://lh3.googleusercontent.com/a/ACg8ocJ-abc=s96-c';
    expect(safePictureUrl(url)).toBe(url);
  });

  it('drops every other kind of address, and nothing', () => {
    for (const value of [
      'javascript:alert(1)',
      ' javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'http://example.ro/a.png',
      'https://u:p@example.ro/a.png',
      '/avatar.svg',
      `https://example.ro/${'a'.repeat(500)}`,
      '',
      null,
      undefined,
    ]) {
      expect(safePictureUrl(value), String(value)).toBeNull();
    }
  });
});
