import { describe, expect, it } from 'vitest';
import type { TestItem, TestPaper } from '../../../shared/schemas/tests.js';
import { statementImage } from '../../../shared/statement.js';
import { gradesTitle, paperImageIds, renderTestPaper } from './test-paper.js';

const IMG_A = '0196a3a0-0000-7000-8000-00000000000a';
const IMG_B = '0196a3a0-0000-7000-8000-00000000000b';

const item = (over: Partial<TestItem> = {}): TestItem => ({
  _id: 'q1',
  itemId: 'q1',
  position: 1,
  score: 2.5,
  itemQ: 'Cât face $1+1$?',
  itemType: 'single',
  itemAnswers: ['1', '2'],
  itemCategory: 'Algebră',
  itemGrade: 5,
  difficulty: 'low',
  imageFileId: null,
  ...over,
});

const paper = (over: Partial<TestPaper> = {}): TestPaper => ({
  testId: 't',
  examId: 'e',
  editionId: 'd',
  phaseId: 'p',
  examName: 'Olimpiada de Matematică',
  editionName: 'Ediția 2026',
  phaseName: 'Etapa locală',
  testName: 'Subiect',
  grades: [5, 6],
  subject: 'Matematică',
  startDate: '2026-11-24T08:00:00.000Z',
  endDate: '2026-11-24T11:00:00.000Z',
  duration: 90,
  totalScore: 20,
  items: [item()],
  ...over,
});

describe('renderTestPaper', () => {
  it('prints a stored statement beyond the formula limits as plain text instead of failing', () => {
    const deep = `$${'\\sqrt{'.repeat(3000)}x${'}'.repeat(3000)}$`;
    const macro = '$\\def\\a{\\sqrt{\\a}}\\a$';
    const html = renderTestPaper({
      ...paper({ items: [item({ itemQ: `Cât face ${deep}?`, itemAnswers: [macro, deep] })] }),
      images: new Map(),
    });
    expect(html).toContain('Cât face $\\sqrt{\\sqrt{');
    expect(html).toContain('statement-plain');
  });

  it('escapes names, which are user content', () => {
    const html = renderTestPaper({
      ...paper({ examName: '<img src=x onerror="alert(1)">', testName: 'A & B' }),
      images: new Map(),
    });
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(html).toContain('A &amp; B');
    expect(html).not.toMatch(/<script/i);
  });

  it('writes Romanian counts: 1 punct, 2,5 puncte, 20 de puncte, 90 de minute', () => {
    const html = renderTestPaper({
      ...paper({
        items: [
          item({ score: 1 }),
          item({ _id: 'q2', score: 2.5 }),
          item({ _id: 'q3', score: 101 }),
        ],
      }),
      images: new Map(),
    });
    expect(html).toContain('Punctaj total: 20 de puncte');
    expect(html).toContain('Durata: 90 de minute');
    expect(html).toContain('(1 punct)');
    expect(html).toContain('(2,5 puncte)');
    expect(html).toContain('(101 puncte)');
    expect(html).toContain('Întrebarea 3');
  });

  it('shows answer boxes, a line for numbers and space for open answers', () => {
    const html = renderTestPaper({
      ...paper({
        items: [
          item({ itemAnswers: ['$\\frac{1}{2}$', 'doi'] }),
          item({ _id: 'n', itemType: 'numeric', itemAnswers: [] }),
          item({ _id: 'o', itemType: 'open', itemAnswers: [] }),
        ],
      }),
      images: new Map(),
    });
    expect(html.match(/class="box"/g)).toHaveLength(2);
    expect(html).toContain('<b>B.</b> doi');
    expect(html).toContain('class="katex"');
    expect(html).toContain('Răspuns: <span class="line">');
    expect(html).toContain('class="answer-space"');
  });

  it('embeds the images it was given and drops the ones it was not', () => {
    const html = renderTestPaper({
      ...paper({
        items: [item({ itemQ: `Figura: ${statementImage(IMG_A)}`, imageFileId: IMG_B })],
      }),
      images: new Map([[IMG_B, 'data:image/png;base64,QUJD']]),
    });
    expect(html).toContain('src="data:image/png;base64,QUJD"');
    expect(html).not.toContain(IMG_A);
  });

  it('prints an imported question, whose statement is its own image, once', () => {
    const html = renderTestPaper({
      ...paper({ items: [item({ itemQ: statementImage(IMG_A), imageFileId: IMG_A })] }),
      images: new Map([[IMG_A, 'data:image/png;base64,QUJD']]),
    });
    expect(html.split('data:image/png;base64,QUJD').length - 1).toBe(1);
  });
});

describe('paperImageIds', () => {
  it("collects each item's image and those its texts embed, once", () => {
    const items = [
      item({ itemQ: statementImage(IMG_A), imageFileId: IMG_B.toUpperCase() }),
      item({ itemAnswers: [statementImage(IMG_A), 'trei'] }),
    ];
    expect(paperImageIds(items).sort()).toEqual([IMG_A, IMG_B].sort());
  });
});

describe('gradesTitle', () => {
  it("reads 'Clasa 5, 6' and names grade 99", () => {
    expect(gradesTitle([5, 6])).toBe('Clasa 5, 6');
    expect(gradesTitle([12, 99])).toBe('Clasa 12, Absolvent');
  });
});
