import { deflateRawSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeEdition,
  makeEnrolment,
  makeExam,
  makePhase,
  makeTestWithItems,
} from '../server/db/factories.js';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { apiSession, type Lang, openPage, PASSWORD } from './session.js';

const MINUTE = 60_000;
const poll = expect.poll;

/** A zip whose one part is a sheet of `megabytes` of repeated rows: a few kilobytes packed. */
function spreadsheetBomb(megabytes: number): Buffer {
  const row = '<row r="2"><c r="A2" t="inlineStr"><is><t>x</t></is></c></row>';
  const data = Buffer.from(row.repeat(Math.ceil((megabytes * 1024 * 1024) / row.length)));
  const name = Buffer.from('xl/worksheets/sheet1.xml');
  const packed = deflateRawSync(data, { level: 9 });
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(packed.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(packed.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(name.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + name.length, 12);
  end.writeUInt32LE(30 + name.length + packed.length, 16);
  return Buffer.concat([local, name, packed, central, name, end]);
}

/**
 * What the input rules look like on screen, in both languages: an answer the server refuses
 * for good, a spreadsheet bomb in the import dialog, a formula nested too deep in the question
 * form, and a stored unsafe profile picture drawn as the default avatar.
 */
describe.skipIf(!hasChromium)('input rules on screen', () => {
  let podium: Podium;
  let browser: Browser;
  let testId = '';
  let questionsUrl = '';

  beforeAll(async () => {
    podium = await startPodium();
    browser = await openBrowser();
    const now = Date.now();
    await podium.createUser({
      email: 'admin@example.ro',
      password: PASSWORD,
      type: 'admin',
      givenName: 'Ioana',
      familyName: 'Dinu',
      // Stored before the rule: the screens draw the default avatar instead.
      picture: 'javascript:alert(document.cookie)',
    });
    const exam = await makeExam(podium.db, { name: 'Olimpiada de Matematică', grades: [6] });
    const edition = await makeEdition(podium.db, { examId: exam.id, name: 'Ediția 2026' });
    const phase = await makePhase(podium.db, {
      editionId: edition.id,
      name: 'Etapa pe școală',
      startDate: new Date(now - 60 * MINUTE),
      endDate: new Date(now + 24 * 60 * MINUTE),
    });
    questionsUrl = `/examene/${exam.id}/editii/${edition.id}/phases/${phase.id}/questions`;
    const made = await makeTestWithItems(podium.db, {
      phaseId: phase.id,
      grades: [6],
      name: 'Proba online',
      startDate: new Date(now - 5 * MINUTE),
      endDate: new Date(now + 180 * MINUTE),
      items: [
        {
          itemQ: 'Explicați de ce suma unghiurilor unui triunghi este $180^\\circ$.',
          itemType: 'open',
          itemAnswers: [],
          itemCorrectAnswers: null,
        },
      ],
    });
    testId = made.test.id;
    for (const [email, givenName] of [
      ['maria@elevi.example.ro', 'Maria'],
      ['john@elevi.example.ro', 'John'],
    ] as const) {
      const { id } = await podium.createUser({
        email,
        password: PASSWORD,
        type: 'student',
        givenName,
        familyName: 'Ionescu',
        grade: 6,
      });
      await makeEnrolment(podium.db, {
        editionId: edition.id,
        studentId: id,
        grade: 6,
        phaseIds: [phase.id],
      });
    }
  });
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
  });

  const signIn = async (email: string, lang: Lang): Promise<Page> =>
    openPage(browser, lang, { session: await apiSession(podium.baseUrl, email) });

  const WORDS = {
    ro: {
      terms: [/singur sau singură/, /nepermise/, /nu voi ajuta/, /am citit regulamentul/],
      start: 'Începe testul',
      answer: 'Răspunsul dumneavoastră',
      refused: 'Răspunsul nu a fost salvat: conține caractere',
      import: 'Importă',
      importDialog: 'Importă întrebări',
      chooseSheet: 'Alege foaia de calcul',
      tooLarge: 'prea mult după dezarhivare (cel mult 10 MB',
      add: 'Adaugă întrebare',
      addButton: 'Adaugă întrebarea',
      statement: /^Enunț/,
      tooDeep: 'O formulă este imbricată prea adânc',
      preview: 'Previzualizare',
    },
    en: {
      terms: [/on my own/, /forbidden materials/, /not help other participants/, /read the/],
      start: 'Start the test',
      answer: 'Your answer',
      refused: 'This answer was not saved: it holds characters',
      import: 'Import',
      importDialog: 'Import questions',
      chooseSheet: 'Choose the spreadsheet',
      tooLarge: 'too much once unpacked (at most 10 MB',
      add: 'Add question',
      addButton: 'Add the question',
      statement: /^Statement/,
      tooDeep: 'A formula is nested too deeply',
      preview: 'Preview',
    },
  } as const;

  for (const [lang, email] of [
    ['ro', 'maria@elevi.example.ro'],
    ['en', 'john@elevi.example.ro'],
  ] as const) {
    it(`shows an answer refused for good, and saves the next one (${lang})`, async () => {
      const w = WORDS[lang];
      const page = await signIn(email, lang);
      await page.goto(`${podium.baseUrl}/test/${testId}`);
      for (const term of w.terms) await page.getByRole('checkbox', { name: term }).check();
      await page.getByRole('button', { name: w.start }).click();
      const field = page.getByRole('textbox', { name: w.answer });
      await field.waitFor();
      // Text pasted from another program can carry a NUL, which no database stores.
      await field.evaluate((el: HTMLTextAreaElement) => {
        const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
        setter?.call(el, 'Suma este 180\u0000 de grade');
        el.dispatchEvent(new Event('input', { bubbles: true }));
      });
      await poll(() => page.getByRole('alert').filter({ hasText: w.refused }).count()).toBe(1);
      await poll(() => page.getByTestId('save-status').getAttribute('data-status')).toBe(
        'rejected',
      );
      await page.mouse.move(0, 0);
      await shot(page, `player-answer-refused-${lang}`);
      await field.fill('Suma este 180 de grade, pentru că…');
      await poll(() => page.getByTestId('save-status').getAttribute('data-status')).toBe('saved');
      await page.context().close();
    });
  }

  for (const lang of ['ro', 'en'] as const) {
    it(`explains a spreadsheet that unpacks to too much, in the import dialog (${lang})`, async () => {
      const w = WORDS[lang];
      const page = await signIn('admin@example.ro', lang);
      await page.goto(`${podium.baseUrl}${questionsUrl}`);
      await page.getByRole('button', { name: w.import, exact: true }).click();
      const dialog = page.getByRole('dialog', { name: w.importDialog });
      await dialog.getByLabel(w.chooseSheet).setInputFiles({
        name: 'intrebari.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: spreadsheetBomb(40),
      });
      await dialog.getByRole('button', { name: w.import, exact: true }).click();
      await poll(() => dialog.getByRole('alert').innerText()).toContain(w.tooLarge);
      await shot(page, `question-import-too-large-${lang}`, { fullPage: false });
      await page.context().close();
    });

    it(`refuses a formula nested too deep on the statement, the preview showing plain text (${lang})`, async () => {
      const w = WORDS[lang];
      const page = await signIn('admin@example.ro', lang);
      await page.goto(`${podium.baseUrl}${questionsUrl}`);
      await page.getByRole('button', { name: w.add }).click();
      const form = page.getByRole('dialog', { name: w.add });
      const deep = `Fie $${'\\frac{1}{'.repeat(30)}x${'}'.repeat(30)}$.`;
      await form.getByRole('textbox', { name: w.statement }).fill(deep);
      const preview = form.getByRole('region', { name: w.preview });
      await poll(() => preview.locator('.statement-plain').count()).toBe(1);
      expect(await preview.locator('.katex').count()).toBe(0);
      await form.getByRole('button', { name: w.addButton }).click();
      await poll(() => form.getByText(w.tooDeep).count()).toBe(1);
      await page.mouse.move(0, 0);
      await shot(page, `question-formula-too-deep-${lang}`, { fullPage: false });
      await page.context().close();
    });

    it(`draws the default avatar for a stored javascript: picture (${lang})`, async () => {
      const page = await signIn('admin@example.ro', lang);
      const alerts: string[] = [];
      page.on('dialog', (d) => {
        alerts.push(d.message());
        void d.dismiss();
      });
      await page.goto(`${podium.baseUrl}/profil`);
      await poll(() => page.locator('img[src="/avatar.svg"]').count()).toBeGreaterThan(0);
      expect(await page.locator('img[src^="javascript:"]').count()).toBe(0);
      expect(alerts).toEqual([]);
      await shot(page, `profile-default-avatar-${lang}`);
      await page.context().close();
    });
  }
});
