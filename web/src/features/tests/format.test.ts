import { describe, expect, it } from 'vitest';
import { statementImage } from '../../../../shared/statement.js';
import { formatWindow, itemMarkdown } from './format.js';

const FILE = '0193a6c4-1111-7222-8333-944455556666';

describe('test item statement', () => {
  it("adds the item's own image under the text", () => {
    expect(itemMarkdown({ itemQ: 'Calculați $x$.', imageFileId: FILE })).toBe(
      `Calculați $x$.\n\n${statementImage(FILE)}`,
    );
  });

  it('does not show an image twice when the text already embeds it', () => {
    const itemQ = statementImage(FILE, 'problema 1');
    expect(itemMarkdown({ itemQ, imageFileId: FILE.toUpperCase() })).toBe(itemQ);
    expect(itemMarkdown({ itemQ: 'Fără imagine', imageFileId: null })).toBe('Fără imagine');
  });
});

describe('test window', () => {
  it('names the day once when the test starts and ends on the same day', () => {
    const text = formatWindow('2026-11-23T07:00:00Z', '2026-11-23T10:00:00Z', 'en');
    expect(text.match(/2026/g)).toHaveLength(1);
    const twoDays = formatWindow('2026-11-23T07:00:00Z', '2026-11-25T10:00:00Z', 'en');
    expect(twoDays.match(/2026/g)).toHaveLength(2);
  });
});
