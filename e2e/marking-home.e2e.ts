import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  makeEdition,
  makeEnrolment,
  makeExam,
  makePhase,
  makeTestWithItems,
} from '../server/db/factories.js';
import {
  questionReviewers,
  questions,
  reviewAppeals,
  reviewEntries,
  users,
} from '../server/db/schema.js';
import { hasChromium, openBrowser, type Podium, shot, startPodium } from './harness.js';
import { apiSession, type Lang, openSignedIn, PASSWORD } from './session.js';

const HOUR = 3_600_000;

/** A PNG the size of a small scan (the bytes of one white pixel would do as well). */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mP8/x8AAwMCAO+ip1sAAAAASUVORK5CYII=',
  'base64',
);

/**
 * A grading teacher who is no one else in the competition (not its admin, staff or a
 * coordinator) finds their marking from the menu: "To mark" on the menu and the start page,
 * the phases they mark in with what waits for them, and the marking list without the staff's
 * tools; a teacher who marks nothing has no such entry. In Romanian and English.
 */
describe.skipIf(!hasChromium)('a reviewer finds their marking from the menu', () => {
  let podium: Podium;
  let browser: Browser;
  const ids = { exam: '', edition: '', phase: '', test: '', question: '' };

  const api = async (method: string, url: string, token: string, body?: BodyInit | object) => {
    const isForm = body instanceof FormData;
    const res = await fetch(`${podium.baseUrl}/api/v1${url}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body && !isForm ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<unknown>;
  };
  const tokenOf = async (email: string) => (await apiSession(podium.baseUrl, email)).token;

  beforeAll(async () => {
    vi.setConfig({ expect: { poll: { timeout: 15_000, interval: 100 } } });
    podium = await startPodium();
    browser = await openBrowser();
    const db = podium.db;
    const people: Record<string, string> = {};
    const person = async (
      key: string,
      type: 'teacher' | 'student',
      given: string,
      family: string,
    ) => {
      people[key] = (
        await podium.createUser({
          email: `${key}@${type === 'teacher' ? 'profesori' : 'elevi'}.example.ro`,
          password: PASSWORD,
          type,
          givenName: given,
          familyName: family,
          ...(type === 'student' ? { grade: 7 } : {}),
        })
      ).id;
    };
    await person('ioana', 'teacher', 'Ioana', 'Dinu'); // the competition's admin
    await person('radu', 'teacher', 'Radu', 'Matei');
    await person('ana', 'teacher', 'Ana', 'Pop');
    await person('mihai', 'teacher', 'Mihai', 'Stoica');
    await person('dan', 'teacher', 'Dan', 'Georgescu'); // marks nothing
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
          itemQ: 'Calculați $1/2 + 1/3$.',
          itemType: 'open',
          itemAnswers: [],
          itemCorrectAnswers: null,
          score: 10,
        },
      ],
    });
    Object.assign(ids, {
      exam: exam.id,
      edition: edition.id,
      phase: phase.id,
      test: test.id,
      question: qs[0]?.id ?? '',
    });
    await db.insert(questionReviewers).values([
      { questionId: ids.question, teacherId: people.radu ?? '' },
      { questionId: ids.question, teacherId: people.ana ?? '' },
    ]);
    await db
      .update(questions)
      .set({ mediatorTeacherId: people.mihai })
      .where(eq(questions.id, ids.question));
    // Three students hand in a page each; then the admin starts the marking.
    for (const [key, given, family] of [
      ['maria', 'Maria', 'Ionescu'],
      ['andrei', 'Andrei', 'Popa'],
      ['irina', 'Irina', 'Stan'],
    ] as const) {
      await person(key, 'student', given, family);
      await makeEnrolment(db, {
        editionId: edition.id,
        studentId: people[key] ?? '',
        grade: 7,
        phaseIds: [phase.id],
      });
      const form = new FormData();
      form.append('item_0', new Blob([PIXEL], { type: 'image/png' }), 'pagina-1.png');
      const phasePath = `/exams/${exam.id}/editions/${edition.id}/phases/${phase.id}`;
      await api(
        'POST',
        `/upload-mgmt${phasePath}/tests/${test.id}/items/${ids.question}/answers`,
        await tokenOf(`${key}@elevi.example.ro`),
        form,
      );
    }
    await api(
      'PUT',
      `/exam-mgmt/exams/${exam.id}/editions/${edition.id}/phases/${phase.id}/review`,
      await tokenOf('ioana@profesori.example.ro'),
    );
  }, 240_000);

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

  const signIn = async (email: string, lang: Lang) => {
    current = await openSignedIn(browser, podium.baseUrl, email, lang, {
      keepPickedLanguage: true,
    });
    return current;
  };

  const words = {
    ro: {
      toMark: 'De corectat',
      papers: /^\d+ (de )?lucrări de corectat$/,
      marking: 'Corectare',
      progress: 'Progresul corectării',
      nav: 'Navigare principală',
      badge: /^De corectat\s*\d+ (de )?lucrări? vă așteaptă$/,
    },
    en: {
      toMark: 'To mark',
      papers: /^\d+ papers? to mark$/,
      marking: 'Marking',
      progress: 'Marking progress',
      nav: 'Main navigation',
      badge: /^To mark\s*\d+ papers? waits? for you$/,
    },
  } as const;

  for (const lang of ['ro', 'en'] as const) {
    const w = words[lang];
    it(`leads a reviewer who is not staff to their papers (${lang})`, async () => {
      const page = await signIn('radu@profesori.example.ro', lang);
      // The menu entry and the start page's card.
      const nav = page.getByRole('navigation', { name: w.nav });
      await expect.poll(() => nav.getByRole('link', { name: w.toMark }).count()).toBe(1);
      // Its badge counts what waits for them, and the link's name says so.
      await expect.poll(() => nav.getByTestId('nav-badge-to-mark').innerText()).toMatch(/^\d+/);
      expect(await nav.getByRole('link', { name: w.badge }).count()).toBe(1);
      await expect
        .poll(() =>
          page
            .getByRole('main')
            .getByRole('link', { name: new RegExp(w.toMark) })
            .count(),
        )
        .toBe(1);
      await shot(page, `marking-home-card-${lang}`);

      // The phases they mark in, with what waits for them.
      await nav.getByRole('link', { name: w.toMark }).click();
      await expect.poll(() => page.url()).toContain('/de-corectat');
      const card = page.getByRole('region', { name: 'Etapa județeană' });
      await expect.poll(() => card.getByRole('link', { name: w.papers }).count()).toBe(1);
      await shot(page, `marking-to-mark-${lang}`);

      // The marking list: their papers, no staff tools, a way back to "To mark".
      await card.getByRole('link', { name: w.marking, exact: true }).click();
      await expect
        .poll(() => page.getByRole('heading', { level: 1, name: w.marking }).count())
        .toBe(1);
      await expect
        .poll(() =>
          page.getByRole('link', { name: /^(Deschide Întrebarea|Open Question) 1, / }).count(),
        )
        .toBeGreaterThan(0);
      expect(await page.getByRole('link', { name: w.progress }).count()).toBe(0);
      expect(await page.getByRole('alert').filter({ hasText: /.+/ }).count()).toBe(0);
      await shot(page, `marking-list-reviewer-${lang}`);
      await page.context().close();
    }, 240_000);
  }

  it('shows no "To mark" to a teacher who marks nothing, and tells them on a list of a phase', async () => {
    const page = await signIn('dan@profesori.example.ro', 'ro');
    const nav = page.getByRole('navigation', { name: words.ro.nav });
    // The menu is drawn; a teacher who sees no competition has no "Concursuri" either.
    await expect.poll(() => nav.getByRole('link', { name: 'Diplome' }).count()).toBe(1);
    expect(await nav.getByRole('link', { name: 'Concursuri' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: words.ro.toMark }).count()).toBe(0);
    await page.goto(
      `${podium.baseUrl}/examene/${ids.exam}/editii/${ids.edition}/phases/${ids.phase}/corectare`,
    );
    await expect
      .poll(() => page.getByText('Nu sunteți corector sau mediator în această etapă').count())
      .toBe(1);
    await shot(page, 'marking-list-not-marker-ro');
    await page.context().close();
  }, 240_000);
  it('counts on "Competitions" the appeals only the exam admin can decide (ro, en)', async () => {
    // Irina appeals her mark; both of the question's markers marked her answer already, so
    // nobody is free to re-mark it: the exam's admins decide it (GET /test-review/admin-decisions).
    const db = podium.db;
    const [irina] = await db.select().from(users).where(eq(users.email, 'irina@elevi.example.ro'));
    const [entry] = await db
      .select()
      .from(reviewEntries)
      .where(
        and(eq(reviewEntries.phaseId, ids.phase), eq(reviewEntries.studentId, irina?.id ?? '')),
      );
    if (!entry) throw new Error('no entry for Irina');
    await db.insert(reviewAppeals).values({
      id: randomUUID(),
      phaseId: entry.phaseId,
      testId: entry.testId,
      itemId: entry.itemId,
      studentId: entry.studentId,
      answerId: entry.answerId,
      entryId: entry.id,
      itemIndexInTest: entry.itemIndexInTest,
      code: entry.code,
      kind: 'remark',
      status: 'pending',
      reason: 'Am rezolvat și punctul b.',
      filedAt: new Date(),
      maxScore: entry.maxScore,
    });
    const names = {
      ro: { exams: 'Concursuri', badge: /^Concursuri\s*1 contestație de decis$/ },
      en: { exams: 'Competitions', badge: /^Competitions\s*1 appeal to decide$/ },
    } as const;
    for (const lang of ['ro', 'en'] as const) {
      const page = await signIn('ioana@profesori.example.ro', lang);
      const nav = page.getByRole('navigation', { name: words[lang].nav });
      await expect.poll(() => nav.getByTestId('nav-badge-exams').count()).toBe(1);
      expect(await nav.getByTestId('nav-badge-exams').innerText()).toMatch(/^1\s/);
      // The count is in the link's name, not only drawn on its icon.
      expect(await nav.getByRole('link', { name: names[lang].badge }).count()).toBe(1);
      await shot(page, `nav-admin-appeals-${lang}`, { fullPage: false });
      await page.context().close();
    }
  }, 240_000);
});
