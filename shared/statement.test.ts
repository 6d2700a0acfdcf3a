import { describe, expect, it } from 'vitest';
import {
  formulaDepth,
  MAX_FORMULA_CHARS,
  MAX_FORMULA_DEPTH,
  renderStatement,
  renderStatementInline,
  statementImage,
  statementImageIds,
  statementMathProblem,
} from './statement.js';

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

describe('formula limits', () => {
  const nested = (n: number) => `$${'\\sqrt{'.repeat(n)}x${'}'.repeat(n)}$`;

  it('measure the nesting of groups, \\left…\\right and \\begin…\\end, not escaped braces', () => {
    expect(formulaDepth('\\frac{1}{1+\\frac{1}{x}}')).toBe(2);
    expect(formulaDepth('\\left\\{ \\begin{matrix} a & b \\end{matrix} \\right\\}')).toBe(3);
    expect(formulaDepth('a \\{ b \\} c')).toBe(0);
  });

  it('name the problem: too deep, or too much formula in one text', () => {
    expect(statementMathProblem(`Fie ${nested(MAX_FORMULA_DEPTH)}.`)).toBeUndefined();
    expect(statementMathProblem(`Fie ${nested(MAX_FORMULA_DEPTH + 1)}.`)).toBe('formula_too_deep');
    const many = Array.from({ length: 600 }, (_, i) => `$x_{${i}}^2$`).join(' ');
    expect(statementMathProblem(many)).toBe('formula_too_long');
    // Dollar signs that are prices, not formulas, count for nothing.
    expect(statementMathProblem(`Costă $5 și $6. ${'text '.repeat(2000)}`)).toBeUndefined();
    expect(statementMathProblem(nested(MAX_FORMULA_DEPTH + 1), { inline: true })).toBe(
      'formula_too_deep',
    );
  });

  it('render a stored text beyond them as plain text, and never throw', () => {
    for (const md of [
      `Cât face ${nested(3000)}?`,
      `Cât face ${nested(MAX_FORMULA_DEPTH + 1)}?\nA doua linie <b>`,
      `$${'x+'.repeat(MAX_FORMULA_CHARS)}1$`,
    ]) {
      const html = renderStatement(md);
      expect(html).toMatch(/^<p class="statement-plain">Cât face|^<p class="statement-plain">\$/);
      expect(html).not.toContain('katex');
      expectInert(html);
      expect(renderStatementInline(md)).not.toContain('katex');
    }
    expect(renderStatement('a\n<b>b</b>'.replace('a', `${nested(30)}`))).toContain('<br>');
  });

  it('define no macros: a recursive definition renders instead of overflowing the stack', () => {
    for (const tex of [
      '$\\def\\a{\\sqrt{\\a}}\\a$',
      '$\\gdef\\a{{\\a}}\\a$',
      '$\\newcommand{\\a}{\\frac{\\a}{\\a}}\\a$',
      '$\\let\\b\\sqrt\\def\\a{\\b{\\a}}\\a$',
    ]) {
      expect(() => renderStatement(tex)).not.toThrow();
      expect(renderStatement(tex)).toContain('katex');
    }
  });
});

describe('the rendered statements cache', () => {
  it('gives every caller its own image addresses from one rendering', () => {
    const md = `Figura ${statementImage(FILE_ID, 'F')} și $\\frac{a}{b}$`;
    const a = renderStatement(md, { imageSrc: (id) => `blob:one/${id}` });
    const b = renderStatement(md, { imageSrc: (id) => `blob:two/${id}` });
    expect(a).toContain(`src="blob:one/${FILE_ID}"`);
    expect(b).toContain(`src="blob:two/${FILE_ID}"`);
    expect(a.replace('one', 'two')).toBe(b);
    expect(renderStatement(md, { imageSrc: () => undefined })).not.toContain('<img');
    expect(renderStatement(md)).toContain(`src="/api/v1/resource-mgmt/files/${FILE_ID}"`);
  });

  it('keeps block and inline renderings apart', () => {
    expect(renderStatement('**x**')).toBe('<p><strong>x</strong></p>\n');
    expect(renderStatementInline('**x**')).toBe('<strong>x</strong>');
  });
});
