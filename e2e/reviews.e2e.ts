import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  makeEdition,
  makeEnrolment,
  makeExam,
  makePhase,
  makeTestWithItems,
} from '../server/db/factories.js';
import { questionReviewers, questions } from '../server/db/schema.js';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { tabTo } from './keyboard.js';
import { LAPTOP, type Lang, openSignedIn, PASSWORD } from './session.js';

const HOUR = 3_600_000;
const PHONE = { width: 390, height: 844 };

/**
 * Switches a mark form to a free mark. A click that lands while the form is drawn again (the
 * paper or the marks arriving) is lost, so it is repeated until the mark field is there; a click
 * on the chosen mode changes nothing (the form keeps a mode, never none).
 */
async function chooseFreeMark(page: Page, lang: Lang) {
  const button = page.getByRole('button', { name: lang === 'ro' ? 'Notă liberă' : 'Free mark' });
  const field = page.getByLabel(lang === 'ro' ? /^Nota \(0/ : /^Mark \(0/);
  await expect
    .poll(async () => {
      if ((await field.count()) === 0) await button.click();
      return field.count();
    })
    .toBe(1);
}

/** A page of handwriting, photographed: drawn by the browser as a PNG. */
async function handwritten(browser: Browser, lines: string[]) {
  const page = await browser.newPage({ viewport: { width: 480, height: 640 } });
  const text = lines.map((l, i) => `<text x="36" y="${90 + i * 56}">${l}</text>`).join('');
  await page.setContent(`<body style="margin:0;background:#fdfcf5">
    <svg xmlns="http://www.w3.org/2000/svg" width="480" height="640" font-family="cursive"
      font-size="30" fill="#1a237e">
      ${Array.from({ length: 11 }, (_, i) => `<line x1="0" x2="480" y1="${100 + i * 56}" y2="${100 + i * 56}" stroke="#90caf9"/>`).join('')}
      ${text}
    </svg></body>`);
  const bytes = await page.screenshot({
    type: 'png',
    clip: { x: 0, y: 0, width: 480, height: 640 },
  });
  await page.close();
  return bytes;
}

/**
 * A hybrid test from the student's upload to her final score after an appeal: the start of
 * marking refused for a question without its mediator (with the link to choose one) and then
 * started; the marking scheme set; a second reminder round at once mailing nobody again; two
 * blind marks (one built from the scheme, one free, with a stale second tab told the paper
 * changed); the mediator deciding between them; the student appealing on a phone; two other
 * reviewers marking the appeal and the exam's admin mediating it (the question's mediator
 * decided the first round); the new final score on the student's result page, in Romanian and
 * English.
 */
describe.skipIf(!hasChromium)('marking, mediation and appeals in the browser', () => {
  let podium: Podium;
  let browser: Browser;
  const ids = { exam: '', edition: '', phase: '', test: '', question: '' };
  const people: Record<string, string> = {};
  let scan: Buffer;

  const phaseUrl = () => `/examene/${ids.exam}/editii/${ids.edition}/phases/${ids.phase}`;

  beforeAll(async () => {
    // Seven people's screens on a shared two-core machine: give each change on screen time.
    vi.setConfig({ expect: { poll: { timeout: 15_000, interval: 100 } } });
    podium = await startPodium();
    browser = await openBrowser();
    const db = podium.db;
    const teacher = async (key: string, givenName: string, familyName: string) => {
      people[key] = (
        await podium.createUser({
          email: `${key}@profesori.example.ro`,
          password: PASSWORD,
          type: 'teacher',
          givenName,
          familyName,
          teacherCode: `${key.toUpperCase()}-COD`,
        })
      ).id;
    };
    await teacher('ioana', 'Ioana', 'Dinu'); // the competition's admin
    await teacher('radu', 'Radu', 'Matei');
    await teacher('ana', 'Ana', 'Pop');
    await teacher('mihai', 'Mihai', 'Stoica'); // mediator
    await teacher('elena', 'Elena', 'Vasile');
    await teacher('dan', 'Dan', 'Georgescu');
    await teacher('coord', 'Sorin', 'Lazăr'); // Maria's coordinating teacher
    const exam = await makeExam(db, {
      name: 'Olimpiada de Matematică',
      grades: [7],
      adminTeacherIds: [people.ioana ?? ''],
    });
    const edition = await makeEdition(db, { examId: exam.id, name: 'Ediția 2026' });
    const now = Date.now();
    const phase = await makePhase(db, {
      editionId: edition.id,
      name: 'Etapa județeană',
      type: 'hybrid',
      startDate: new Date(now - 24 * HOUR),
      endDate: new Date(now + 6 * 24 * HOUR),
      appealStartDate: new Date(now - HOUR),
      appealEndDate: new Date(now + 48 * HOUR),
    });
    const { test, questions: qs } = await makeTestWithItems(db, {
      phaseId: phase.id,
      name: 'Subiectul clasei a VII-a',
      grades: [7],
      startDate: new Date(now - HOUR),
      endDate: new Date(now + 2 * HOUR),
      durationMinutes: 120,
      items: [
        {
          itemQ:
            'Calculați $\\frac{1}{2} + \\frac{1}{3}$ și scrieți rezultatul ca fracție ireductibilă.',
          itemType: 'open',
          itemAnswers: [],
          itemCorrectAnswers: null,
          score: 10,
        },
      ],
    });
    ids.exam = exam.id;
    ids.edition = edition.id;
    ids.phase = phase.id;
    ids.test = test.id;
    ids.question = qs[0]?.id ?? '';
    // Two reviewers, and no mediator yet: the start of marking must say so.
    await db.insert(questionReviewers).values([
      { questionId: ids.question, teacherId: people.radu ?? '' },
      { questionId: ids.question, teacherId: people.ana ?? '' },
    ]);
    people.maria = (
      await podium.createUser({
        email: 'maria@elevi.example.ro',
        password: PASSWORD,
        type: 'student',
        givenName: 'Maria',
        familyName: 'Ionescu',
        grade: 7,
        teacherRef: people.coord,
        school: 'Școala Gimnazială Nr. 7',
      })
    ).id;
    await makeEnrolment(db, {
      editionId: edition.id,
      studentId: people.maria ?? '',
      grade: 7,
      phaseIds: [phase.id],
    });
    scan = await handwritten(browser, ['1/2 + 1/3 =', '= 3/6 + 2/6 =', '= 5/6']);
  });
  // A failed step leaves a picture of where it stopped.
  let current: Page | undefined;
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && current && !current.isClosed()) {
      await shot(current, `failed-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}`);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await podium?.close();
  });

  const signIn = async (email: string, lang: Lang, viewport = LAPTOP) => {
    current = await openSignedIn(browser, podium.baseUrl, email, lang, {
      viewport,
      acceptDownloads: true,
      keepPickedLanguage: true,
    });
    return current;
  };

  const toast = (page: Page, text: string | RegExp) =>
    expect
      .poll(() =>
        page.getByRole('alert', { includeHidden: true }).filter({ hasText: text }).count(),
      )
      .toBeGreaterThan(0);

  /** The marks table of the open paper, as text. */
  const marks = (page: Page) =>
    page.getByRole('table', { name: /Notele lucrării|Marks of the paper/ }).innerText();

  /**
   * Opens the first paper of a list tab, from the marking or appeals list. The question's
   * number is matched loosely: the one item of the test (place 0) is 'Întrebarea 1' by the
   * contract, and the server's number is checked by its own tests.
   */
  const openFirst = async (page: Page, list: 'corectare' | 'contestatii', tab: string) => {
    await page.goto(`${podium.baseUrl}${phaseUrl()}/${list}`);
    await page.getByRole('tab', { name: new RegExp(tab) }).click();
    const open = page.getByRole('link', { name: /^(Deschide Întrebarea|Open Question) \d+, / });
    try {
      await expect.poll(() => open.count()).toBe(1);
    } catch (e) {
      await shot(page, `failed-${list}-${tab.replace(/\W+/g, '-')}`);
      throw e;
    }
    await open.click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1, name: /lucrarea|paper/ }).count())
      .toBe(1);
  };

  it('a student uploads her answer', async () => {
    const page = await signIn('maria@elevi.example.ro', 'ro');
    await page.goto(`${podium.baseUrl}/test/${ids.test}`);
    const q1 = page.getByRole('region', { name: 'Întrebarea 1' });
    await q1
      .getByLabel('Încarcă fișiere pentru Întrebarea 1')
      .setInputFiles([{ name: 'maria-ionescu-p1.png', mimeType: 'image/png', buffer: scan }]);
    await toast(page, 'Răspunsul a fost salvat');
    await page.context().close();
  }, 240_000);

  it('the admin starts marking: refused while the question has no mediator, then started', async () => {
    const page = await signIn('ioana@profesori.example.ro', 'ro');
    await page.goto(`${podium.baseUrl}${phaseUrl()}`);
    const section = page.getByRole('region', { name: 'Corectare' });
    await section.getByRole('button', { name: 'Începe corectarea' }).click();
    await page
      .getByRole('dialog', { name: 'Începeți corectarea?' })
      .getByRole('button', { name: 'Începe corectarea' })
      .click();
    const missing = section.getByRole('list', { name: 'Întrebări fără destui profesori' });
    await expect
      .poll(() => missing.getByRole('link', { name: 'Alegeți mediatorul' }).count())
      .toBe(1);
    expect(await missing.getByRole('link', { name: 'Alegeți corectorii' }).count()).toBe(0);
    await expect.poll(() => missing.innerText()).toMatch(/Calculați/);
    await shot(page, 'review-start-refused-ro');
    await missing.getByRole('link', { name: 'Alegeți mediatorul' }).click();
    await expect.poll(() => page.url()).toContain(`/questions/${ids.question}/mediator`);

    // The mediator chosen (the question screens are tested on their own), marking starts.
    await podium.db
      .update(questions)
      .set({ mediatorTeacherId: people.mihai })
      .where(eq(questions.id, ids.question));
    await page.goto(`${podium.baseUrl}${phaseUrl()}`);
    await section.getByRole('button', { name: 'Începe corectarea' }).click();
    await page
      .getByRole('dialog', { name: 'Începeți corectarea?' })
      .getByRole('button', { name: 'Începe corectarea' })
      .click();
    await toast(page, 'Corectarea a început');
    await expect.poll(() => section.getByText('Corectare începută').count()).toBe(1);
    await shot(page, 'review-started-ro');

    // The marking scheme of the question, from the progress screen.
    await section.getByRole('link', { name: 'Progresul corectării' }).click();
    const byQuestion = page.getByRole('table', { name: 'Pe întrebări' });
    await expect.poll(() => byQuestion.getByRole('row').count()).toBe(2);
    await byQuestion.getByRole('button', { name: 'Barem' }).click();
    const rubric = page.getByRole('dialog', { name: /Baremul/ });
    for (const [label, points] of [
      ['Aduce fracțiile la același numitor', '4'],
      ['Adună corect numărătorii', '4'],
      ['Scrie rezultatul ireductibil', '2'],
    ] as const) {
      await rubric.getByRole('button', { name: 'Adaugă un criteriu' }).click();
      await rubric
        .getByLabel(/^Criteriul \d+$/)
        .last()
        .fill(label);
      await rubric.getByLabel('Puncte').last().fill(points);
    }
    await expect.poll(() => rubric.getByText('Toate criteriile: 10 puncte').count()).toBe(1);
    await rubric.getByRole('button', { name: 'Salvează' }).click();
    await toast(page, 'Baremul a fost salvat');

    // Reminders: a second round at once mails nobody again and says when the next may go.
    const remindAll = page.getByRole('button', {
      name: /^Trimite un memento (celor|corectorului)/,
    });
    await remindAll.click();
    await toast(page, /S-au trimis mementouri|S-a trimis un memento/);
    await remindAll.click();
    const skipped = page.getByRole('alert').filter({ hasText: /nu (au|a) primit memento/ });
    await expect.poll(() => skipped.count()).toBe(1);
    await expect.poll(() => skipped.innerText()).toMatch(/următorul memento poate pleca după/);
    await shot(page, 'review-reminders-skipped-ro');
    await page.context().close();
  }, 240_000);

  it('two reviewers mark blind; a stale tab is told the paper changed', async () => {
    const radu = await signIn('radu@profesori.example.ro', 'ro');
    await openFirst(radu, 'corectare', 'De corectat');
    const body = await radu.locator('main').innerText();
    for (const secret of ['Maria', 'Ionescu', 'Școala Gimnazială', 'maria-ionescu']) {
      expect(body).not.toContain(secret);
    }
    await expect
      .poll(() =>
        radu
          .getByRole('img', { name: 'Pagina 1 a răspunsului' })
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
      )
      .toBe(480);
    // A second tab of the same paper, opened before the first saves.
    const stale = await radu.context().newPage();
    await stale.goto(radu.url());
    await expect.poll(() => stale.getByRole('button', { name: 'Salvează nota' }).count()).toBe(1);

    // Zoom and turn the page, then mark by the scheme: 4 + 4 = 8.
    await radu.getByRole('button', { name: 'Mărește' }).click();
    await expect.poll(() => radu.getByLabel('Mărire').innerText()).toBe('125%');
    await radu.keyboard.press('r');
    await expect
      .poll(() =>
        radu.getByRole('img', { name: 'Pagina 1 a răspunsului' }).getAttribute('data-rotation'),
      )
      .toBe('90');
    await radu.getByLabel(/Aduce fracțiile/).check();
    await radu.getByLabel(/Adună corect/).check();
    await expect.poll(() => radu.getByText('Nota din barem: 8 din 10').count()).toBe(1);
    await radu.getByLabel('Observație').fill('Nu a simplificat la final.');
    await shot(radu, 'review-marking-ro');
    await radu.getByRole('button', { name: 'Salvează nota' }).click();
    await toast(radu, 'Nota a fost salvată');
    await expect.poll(() => marks(radu)).toMatch(/Nota dumneavoastră[\s\S]*8/);
    // His mark given, the other shows once its reviewer gives it (not "once you give yours").
    expect(await radu.getByText('Nota celuilalt corector o veți vedea').count()).toBe(0);
    expect(
      await radu.getByText('Nota celuilalt corector apare aici când o dă și el.').count(),
    ).toBe(1);
    // The form drawn again holds his mark, not an empty field: the scheme's boxes ticked, and
    // the free mark, if he switches to it, reads 8.
    await expect.poll(() => radu.getByLabel(/Aduce fracțiile/).isChecked()).toBe(true);
    await expect.poll(() => radu.getByText('Nota din barem: 8 din 10').count()).toBe(1);
    await chooseFreeMark(radu, 'ro');
    await expect.poll(() => radu.getByLabel(/^Nota \(0/).inputValue()).toBe('8');
    expect(await radu.getByLabel('Observație').inputValue()).toBe('Nu a simplificat la final.');
    await shot(radu, 'review-after-save-ro');

    // The stale tab: a free mark of 7 is refused as changed, and the paper shows the 8.
    await chooseFreeMark(stale, 'ro');
    await stale.getByLabel(/^Nota \(0/).fill('7,25');
    await expect
      .poll(() => stale.getByText('Punctajul trebuie să fie un multiplu de 0,5').count())
      .toBe(1);
    await stale.getByLabel(/^Nota \(0/).fill('7');
    await stale.getByRole('button', { name: 'Salvează nota' }).click();
    await expect
      .poll(() => stale.getByRole('alert').filter({ hasText: 'a fost reîncărcată' }).count())
      .toBe(1);
    await expect.poll(() => marks(stale)).toMatch(/Nota dumneavoastră[\s\S]*8/);
    await shot(stale, 'review-stale-tab-ro');
    await radu.context().close();

    // Ana marks 3: five points apart, so the paper goes to the mediator.
    const ana = await signIn('ana@profesori.example.ro', 'en');
    await openFirst(ana, 'corectare', 'To mark');
    // Blind: Ana does not see Radu's 8 before giving her mark.
    const before = ana.getByRole('table', { name: 'Marks of the paper' });
    expect((await before.count()) === 0 || !/8/.test(await before.innerText())).toBe(true);
    await chooseFreeMark(ana, 'en');
    await ana.getByLabel(/^Mark \(0/).fill('3');
    await ana.getByLabel('Note').fill('Only the common denominator is right.');
    await shot(ana, 'review-marking-en');
    await ana.getByRole('button', { name: 'Save the mark' }).click();
    await toast(ana, 'The mark has been saved');
    await expect.poll(() => marks(ana)).toMatch(/Your mark \(reviewer \d\)\s+3\b/);
    await expect.poll(() => marks(ana)).toMatch(/Reviewer \d\s+8\b/);
    await expect.poll(() => ana.getByText('Needs mediation').count()).toBeGreaterThan(0);
    await ana.getByRole('button', { name: 'History' }).click();
    const history = ana.getByRole('dialog', { name: 'History of the paper' });
    await expect.poll(() => history.getByRole('listitem').count()).toBeGreaterThan(1);
    await shot(ana, 'review-history-en', { fullPage: false });
    await ana.context().close();
  }, 240_000);

  it('the mediator sees both marks and decides, with the keyboard alone', async () => {
    const page = await signIn('mihai@profesori.example.ro', 'ro');
    await openFirst(page, 'corectare', 'Așteaptă mediere');
    await expect.poll(() => marks(page)).toMatch(/Corectorul \d\s+8\b/);
    await expect.poll(() => marks(page)).toMatch(/Corectorul \d\s+3\b/);
    // Tab from the top of the paper: the scanned page (to scroll it), the free mark, the field
    // and the save button, no mouse.
    await page.locator('body').focus();
    const scan = page.getByRole('region', { name: 'Pagina 1 a răspunsului' });
    await tabTo(page, scan);
    // Zoomed to 200 % (the viewer's + key), the page is taller than its box.
    await page.keyboard.type('+++');
    await expect.poll(() => page.getByLabel('Mărire').innerText()).toBe('200%');
    const scrolled = await scan.evaluate((el) => el.scrollTop);
    await page.keyboard.press('PageDown');
    await expect.poll(() => scan.evaluate((el) => el.scrollTop)).toBeGreaterThan(scrolled);
    await tabTo(page, page.getByRole('button', { name: 'Notă liberă' }));
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByLabel(/^Nota \(0/));
    await page.keyboard.type('6');
    await shot(page, 'review-mediation-ro');
    await tabTo(page, page.getByRole('button', { name: 'Salvează medierea' }));
    await page.keyboard.press('Enter');
    await toast(page, 'Nota a fost salvată');
    await expect.poll(() => marks(page)).toMatch(/Punctaj final[\s\S]*6/);
    await page.context().close();
  }, 240_000);

  it('the student sees 6 of 10 and appeals from her phone', async () => {
    // Two more reviewers of the question, who did not mark it, for the appeal.
    await podium.db.insert(questionReviewers).values([
      { questionId: ids.question, teacherId: people.elena ?? '' },
      { questionId: ids.question, teacherId: people.dan ?? '' },
    ]);
    const page = await signIn('maria@elevi.example.ro', 'ro', PHONE);
    await page.goto(`${podium.baseUrl}/teste/${ids.test}/rezultat`);
    const item = page.getByRole('listitem', { name: /^Întrebarea \d+$/ });
    await expect.poll(() => item.innerText()).toMatch(/6 din 10 puncte/);
    await shot(page, 'result-phone-ro');
    await item.getByRole('button', { name: /^Contestă punctajul la Întrebarea \d+$/ }).click();
    const dialog = page.getByRole('dialog', { name: /^Contestație: Întrebarea \d+$/ });
    await dialog.getByRole('button', { name: 'Trimite contestația' }).click();
    await expect.poll(() => dialog.getByText('Câmpul este obligatoriu').count()).toBe(1);
    await dialog.getByLabel('Motivul').fill('Am adus la același numitor și am adunat corect: 5/6.');
    await shot(page, 'result-appeal-phone-ro', { fullPage: false });
    await dialog.getByRole('button', { name: 'Trimite contestația' }).click();
    await toast(page, 'Contestația a fost trimisă');
    await expect.poll(() => item.innerText()).toMatch(/Contestație în curs/);
    expect(await item.getByRole('button', { name: /Contestă/ }).count()).toBe(0);
    await page.context().close();
  }, 240_000);

  it('two other reviewers mark the appeal and the exam admin mediates it', async () => {
    const elena = await signIn('elena@profesori.example.ro', 'ro');
    await openFirst(elena, 'contestatii', 'De corectat');
    await expect.poll(() => elena.getByText(/Am adus la același numitor/).count()).toBe(1);
    await chooseFreeMark(elena, 'ro');
    await elena.getByLabel(/^Nota \(0/).fill('9');
    await elena.getByRole('button', { name: 'Salvează nota' }).click();
    await toast(elena, 'Nota a fost salvată');
    await shot(elena, 'appeal-marking-ro');
    await elena.context().close();

    const dan = await signIn('dan@profesori.example.ro', 'en');
    await openFirst(dan, 'contestatii', 'To mark');
    // The paper first: a click before it has loaded is lost when the form is drawn again.
    await expect.poll(() => dan.getByText(/Am adus la același numitor/).count()).toBe(1);
    await chooseFreeMark(dan, 'en');
    await dan.getByLabel(/^Mark \(0/).fill('5');
    await dan.getByRole('button', { name: 'Save the mark' }).click();
    await toast(dan, 'The mark has been saved');
    await dan.context().close();

    // Mihai mediated the first round: the appeal is not his to mediate, the exam's admin does.
    const ioana = await signIn('ioana@profesori.example.ro', 'ro');
    await openFirst(ioana, 'contestatii', 'Așteaptă mediere');
    await expect.poll(() => marks(ioana)).toMatch(/Corectorul \d\s+9\b/);
    await expect.poll(() => marks(ioana)).toMatch(/Corectorul \d\s+5\b/);
    await chooseFreeMark(ioana, 'ro');
    await ioana.getByLabel(/^Nota \(0/).fill('8');
    await ioana.getByRole('button', { name: 'Salvează medierea' }).click();
    await toast(ioana, 'Nota a fost salvată');
    await expect.poll(() => marks(ioana)).toMatch(/Punctaj final[\s\S]*8/);
    await shot(ioana, 'appeal-mediation-ro');
    // Every paper marked: nobody to remind, and the button does not offer "0 markers".
    await ioana.goto(`${podium.baseUrl}${phaseUrl()}`);
    await ioana
      .getByRole('region', { name: 'Corectare' })
      .getByRole('link', { name: 'Progresul corectării' })
      .click();
    const nobody = ioana.getByRole('button', {
      name: 'Niciun corector nu are lucrări necorectate',
    });
    await expect.poll(() => nobody.isDisabled()).toBe(true);
    expect(await ioana.getByText(/celor 0/).count()).toBe(0);
    await shot(ioana, 'review-progress-done-ro');
    await ioana.context().close();
  }, 240_000);

  it('the student reads the final score after the appeal, in Romanian and English', async () => {
    const page = await signIn('maria@elevi.example.ro', 'ro', PHONE);
    await page.goto(`${podium.baseUrl}/teste/${ids.test}/rezultat`);
    const item = page.getByRole('listitem', { name: /^Întrebarea \d+$/ });
    await expect.poll(() => item.innerText()).toMatch(/8 din 10 puncte/);
    await expect.poll(() => item.innerText()).toMatch(/punctajul s-a schimbat/);
    await expect.poll(() => page.getByTestId('result-score').innerText()).toMatch(/8 din 10/);
    // Before and after, by how much and why; never by whom.
    await expect.poll(() => item.innerText()).toMatch(/Stabilit în urma contestației/);
    const changes = item.getByRole('list', { name: 'Cum s-a schimbat punctajul' });
    await expect
      .poll(() => changes.innerText())
      .toMatch(/^De la 6 la 8 puncte \(\+2\): contestație, /);
    expect(await item.innerText()).not.toMatch(/Elena|Dan|Ioana|Mihai/);
    await shot(page, 'result-final-phone-ro');
    await page.evaluate(() => window.localStorage.setItem('podium.language', '"en"'));
    await page.reload();
    const en = page.getByRole('listitem', { name: /^Question \d+$/ });
    await expect.poll(() => en.innerText()).toMatch(/8 of 10 points[\s\S]*the score changed/);
    await expect
      .poll(() => en.getByRole('list', { name: 'How the score changed' }).innerText())
      .toMatch(/^From 6 to 8 points \(\+2\): appeal, /);
    await expect.poll(() => en.innerText()).toMatch(/Set by the appeal/);
    await shot(page, 'result-final-phone-en');
    await page.setViewportSize(LAPTOP);
    await shot(page, 'result-final-en');
    await page.context().close();
  });
});
