import katex from 'katex';
import { describe, expect, it } from 'vitest';
import {
  formulasReady,
  hasFormulas,
  renderStatement,
  setFormulaRenderer,
  statementImageIds,
} from './statement-core.js';

// This file's own module registry: KaTeX has not been given to the renderer here.
describe('the statement renderer before KaTeX is given (the web app, until a formula shows)', () => {
  it('tells texts with formulas apart, renders the others, and never caches a formula untypeset', () => {
    expect(formulasReady()).toBe(false);
    expect(hasFormulas('Costă $5 și $6.')).toBe(false);
    expect(hasFormulas('**Câte** numere?')).toBe(false);
    expect(hasFormulas('Fie $x^2 + 1$.')).toBe(true);
    expect(hasFormulas('$$\n\\frac{1}{2}\n$$')).toBe(true);
    expect(renderStatement('**Câte** numere?')).toContain('<strong>Câte</strong>');
    expect(statementImageIds('Fie $x$.')).toEqual([]);
    expect(() => renderStatement('Fie $x^2 + 1$.')).toThrow(/KaTeX/);

    setFormulaRenderer(katex.renderToString);
    expect(formulasReady()).toBe(true);
    const html = renderStatement('Fie $x^2 + 1$.');
    expect(html).toContain('class="katex"');
    expect(html).not.toContain('$x^2');
  });
});
