import { describe, expect, it } from 'vitest';
import { renderStatement, statementImage, statementImageIds } from './statement.js';

const FILE_ID = '0190f5d2-7a1b-7c3d-8e4f-123456789abc';

/** Nothing that runs script may survive: tags, handlers, script URLs (text may mention them). */
function expectInert(html: string) {
  const tags = html.match(/<[a-z][^>]*>/gi) ?? [];
  for (const tag of tags) {
    expect(tag).not.toMatch(/^<(script|iframe|object|embed|style|link|meta|form|svg)/i);
    expect(tag).not.toMatch(/\son[a-z]+\s*=/i);
    expect(tag).not.toMatch(/(href|src|action)\s*=\s*"\s*(javascript|vbscript|data):/i);
  }
}

describe('renderStatement', () => {
  it('renders Markdown with Romanian diacritics intact', () => {
    const html = renderStatement('**Câte** numere întregi ședința țării ă â î ș ț Ș Ț?');
    expect(html).toContain('<strong>Câte</strong>');
    expect(html).toContain('întregi ședința țării ă â î ș ț Ș Ț?');
  });

  it('renders inline and display formulas with KaTeX', () => {
    const html = renderStatement('Fie $x^2 + 1 = 0$ și\n\n$$\n\\frac{a}{b}\n$$');
    expect(html).toContain('class="katex"');
    expect(html).toContain('katex-display');
    expect(html).toContain('<math');
    expect(renderStatement('Prețul e $5 sau $6.')).not.toContain('katex');
    expect(renderStatement('Inline display $$\\sum_i i$$ here')).toContain('katex-display');
  });

  it('escapes raw HTML instead of keeping it', () => {
    const html = renderStatement('<script>alert(1)</script><img src=x onerror=alert(1)> <b>b</b>');
    expectInert(html);
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('<b>');
  });

  it('drops javascript: and other non-web links', () => {
    for (const md of [
      '[click](javascript:alert(1))',
      '[click](JAVASCRIPT:alert(1))',
      '[x](vbscript:msgbox)',
      '[x](data:text/html;base64,PHNjcmlwdD4=)',
      '<javascript:alert(1)>',
      '[x](  javascript:alert(1))',
    ]) {
      const html = renderStatement(md);
      expectInert(html);
      expect(html).not.toContain('<a ');
    }
    const ok = renderStatement('[site](https://example.ro/a?b=1)');
    expect(ok).toContain('href="https://example.ro/a?b=1"');
    expect(ok).toContain('rel="noopener noreferrer nofollow"');
  });

  it('does not trust KaTeX commands that make links or HTML', () => {
    for (const tex of [
      '$\\href{javascript:alert(1)}{x}$',
      '$\\url{javascript:alert(1)}$',
      '$\\htmlClass{x}{y}$',
      '$\\htmlData{onload=alert(1)}{y}$',
      '$\\includegraphics{https://evil.example/x.png}$',
      '$$\\href{javascript:alert(1)}{x}$$',
    ]) {
      const html = renderStatement(tex);
      expectInert(html);
      expect(html).not.toContain('<a ');
      expect(html).not.toContain('evil.example/x.png"');
    }
  });

  it('keeps broken TeX visible instead of failing', () => {
    const html = renderStatement('$\\frac{1}{$ și $<img src=x>$');
    expectInert(html);
    expect(html).toContain('ș');
  });

  it('shows only images stored by Podium', () => {
    const own = renderStatement(statementImage(FILE_ID, 'Figura 1'));
    expect(own).toContain(`src="/api/v1/resource-mgmt/files/${FILE_ID}"`);
    expect(own).toContain('alt="Figura 1"');
    for (const md of [
      '![x](https://evil.example/track.png)',
      '![x](data:image/png;base64,iVBORw0KGgo=)',
      `![x](/api/v1/resource-mgmt/files/${FILE_ID}/../../x)`,
      '![x](/api/v1/user-mgmt/users/1)',
      `![x](//evil.example/api/v1/resource-mgmt/files/${FILE_ID})`,
    ]) {
      expect(renderStatement(md)).not.toContain('<img');
    }
  });

  it('lets the caller map stored images (blob or data URLs)', () => {
    const html = renderStatement(statementImage(FILE_ID), {
      imageSrc: (id) => `data:image/png;base64,${id.length}`,
    });
    expect(html).toContain('src="data:image/png;base64,36"');
    expect(renderStatement(statementImage(FILE_ID), { imageSrc: () => undefined })).not.toContain(
      '<img',
    );
    expect(statementImageIds(`a ${statementImage(FILE_ID)} b ${statementImage(FILE_ID)}`)).toEqual([
      FILE_ID,
    ]);
  });
});
