export type MailTemplate =
  | 'confirm-email'
  | 'signup-existing'
  | 'reset-password'
  | 'account-activated'
  | 'account-deactivated'
  | 'login-link'
  | 'oidc-linked'
  | 'score-published'
  | 'score-changed'
  | 'result-changed'
  | 'review-reminder';

/**
 * The mails anyone can ask for with an address alone (confirmation, reset, "account exists",
 * sign-in link): only these count against, and are held by, the per-address hourly limit.
 * System mails (score changes, reminders, account state) neither count nor are held.
 */
export const REQUESTED_TEMPLATES: readonly MailTemplate[] = [
  'confirm-email',
  'signup-existing',
  'reset-password',
  'login-link',
];

export const isRequestedTemplate = (template: string): boolean =>
  (REQUESTED_TEMPLATES as readonly string[]).includes(template);

export type MailParams = Record<string, string>;

export type RenderedMail = { subject: string; text: string; html: string };

/** A paragraph of plain text, or a link shown on its own line so mail clients keep it whole. */
type Block = string | { link: string };
type Content = { subject: string; blocks: Block[] };
type Language = 'ro' | 'en';

const PRODUCT = 'Podium';

/** A missing parameter is a caller's bug: failing loudly beats mailing "undefined". */
function need(params: MailParams, name: string, template: MailTemplate): string {
  const value = params[name];
  if (value === undefined || value === '') {
    throw new Error(`Mail template ${template} needs the parameter "${name}"`);
  }
  return value;
}

/** A count with its noun in Romanian: "1 notă", "3 note", "20 de note" (from 20 up, and
 * round hundreds, Romanian puts "de" between). */
function countRo(value: string, one: string, many: string): string {
  const n = Number(value);
  if (!Number.isInteger(n)) return `${value} ${many}`;
  if (n === 1) return `1 ${one}`;
  const rest = Math.abs(n) % 100;
  return rest >= 20 || (rest === 0 && n !== 0) ? `${n} de ${many}` : `${n} ${many}`;
}

const countEn = (value: string, one: string, many: string) =>
  Number(value) === 1 ? `1 ${one}` : `${value} ${many}`;

/** Points as each language writes them: "7,5" in Romanian, "7.5" in English. */
function pointsIn(language: Language, value: string): string {
  const n = Number(value);
  if (!Number.isFinite(n)) return value;
  return n.toLocaleString(language === 'ro' ? 'ro-RO' : 'en-GB', { maximumFractionDigits: 2 });
}

/** A change as "from 7,5 to 3,25 (−4,25)", signed so the student sees which way it went. */
function changeIn(language: Language, p: MailParams, template: MailTemplate): string {
  const before = Number(need(p, 'before', template));
  const after = Number(need(p, 'after', template));
  const diff = Math.round((after - before) * 100) / 100;
  const sign = diff > 0 ? '+' : diff < 0 ? '−' : '±';
  const [from, to] = language === 'ro' ? ['de la', 'la'] : ['from', 'to'];
  return `${from} ${pointsIn(language, String(before))} ${to} ${pointsIn(language, String(after))} (${sign}${pointsIn(language, String(Math.abs(diff)))})`;
}

const CAUSES: Record<Language, Record<string, string>> = {
  ro: {
    marking: 'la corectare',
    mediation: 'la mediere',
    appeal: 'în urma contestației',
    key_fix: 'după corectarea baremului',
  },
  en: {
    marking: 'by the marking',
    mediation: 'by mediation',
    appeal: 'after the appeal',
    key_fix: 'after the answer key was corrected',
  },
};

const causeIn = (language: Language, p: MailParams) =>
  CAUSES[language][need(p, 'cause', 'score-changed')] ?? need(p, 'cause', 'score-changed');

const minutesRo = (value: string) => countRo(value, 'minut', 'minute');
const minutesEn = (value: string) => countEn(value, 'minute', 'minutes');

// Mails that may reach anyone (teachers, organisers, markers, students alike) say
// "dumneavoastră"; those meant for students alone (their results) say "tu" (GLOSSARY.md).
const ro: Record<MailTemplate, (p: MailParams) => Content> = {
  'confirm-email': (p) => ({
    subject: `Confirmați adresa de e-mail pentru ${PRODUCT}`,
    blocks: [
      'Bună ziua,',
      `Vă mulțumim că v-ați creat un cont ${PRODUCT}. Confirmați adresa de e-mail deschizând linkul de mai jos:`,
      { link: need(p, 'link', 'confirm-email') },
      'Dacă nu dumneavoastră ați creat acest cont, ignorați acest mesaj.',
    ],
  }),
  'signup-existing': (p) => ({
    subject: `Încercare de creare a unui cont ${PRODUCT}`,
    blocks: [
      'Bună ziua,',
      `Cineva a încercat să creeze un cont ${PRODUCT} cu această adresă de e-mail, dar există deja un cont pentru ea.`,
      'Dacă ați fost dumneavoastră, autentificați-vă sau resetați-vă parola aici:',
      { link: need(p, 'link', 'signup-existing') },
      'Dacă nu ați fost dumneavoastră, ignorați acest mesaj: contul nu a fost modificat.',
    ],
  }),
  'reset-password': (p) => ({
    subject: `Resetarea parolei ${PRODUCT}`,
    blocks: [
      'Bună ziua,',
      `Am primit o cerere de resetare a parolei contului dumneavoastră ${PRODUCT}. Deschideți linkul de mai jos pentru a alege o parolă nouă; linkul este valabil ${minutesRo(need(p, 'minutes', 'reset-password'))}.`,
      { link: need(p, 'link', 'reset-password') },
      'Dacă nu ați cerut resetarea, ignorați acest mesaj: parola rămâne neschimbată.',
    ],
  }),
  'account-activated': (p) => ({
    subject: `Contul dumneavoastră ${PRODUCT} a fost activat`,
    blocks: [
      'Bună ziua,',
      `Contul dumneavoastră ${PRODUCT} a fost activat. Vă puteți autentifica aici:`,
      { link: need(p, 'link', 'account-activated') },
    ],
  }),
  'account-deactivated': (p) => ({
    subject: `Contul dumneavoastră ${PRODUCT} a fost dezactivat`,
    blocks: [
      'Bună ziua,',
      `Contul dumneavoastră ${PRODUCT} a fost dezactivat. Pentru întrebări, contactați profesorul sau organizatorul concursului.`,
      ...(p.link ? [{ link: p.link }] : []),
    ],
  }),
  'login-link': (p) => ({
    subject: `Linkul de autentificare ${PRODUCT}`,
    blocks: [
      'Bună ziua,',
      `Deschideți linkul de mai jos pentru a vă autentifica în ${PRODUCT}; linkul este valabil ${minutesRo(need(p, 'minutes', 'login-link'))}.`,
      { link: need(p, 'link', 'login-link') },
      'Dacă nu ați cerut acest link, ignorați acest mesaj.',
    ],
  }),
  'oidc-linked': (p) => ({
    subject: `Contul dumneavoastră ${PRODUCT} se poate deschide acum cu ${need(p, 'label', 'oidc-linked')}`,
    blocks: [
      'Bună ziua,',
      `Cineva s-a autentificat în contul dumneavoastră ${PRODUCT} prin ${need(p, 'label', 'oidc-linked')}, cu un cont care are aceeași adresă de e-mail. De acum, acel cont deschide și contul dumneavoastră ${PRODUCT}.`,
      'Dacă ați fost dumneavoastră, nu trebuie să faceți nimic. Dacă nu, schimbați-vă parola și anunțați organizatorul concursului:',
      { link: need(p, 'link', 'oidc-linked') },
    ],
  }),
  'score-published': (p) => ({
    subject: `Rezultatul tău la ${need(p, 'test', 'score-published')} este gata`,
    blocks: [
      'Bună,',
      `Lucrarea ta la testul ${need(p, 'test', 'score-published')} a fost corectată. Punctajul îl vezi, întrebare cu întrebare, aici:`,
      { link: need(p, 'link', 'score-published') },
    ],
  }),
  'score-changed': (p) => ({
    subject: `Rezultatul tău la ${need(p, 'test', 'score-changed')} s-a schimbat`,
    blocks: [
      'Bună,',
      `Punctajul tău la întrebarea ${need(p, 'item', 'score-changed')} a testului ${need(p, 'test', 'score-changed')} s-a schimbat ${causeIn('ro', p)}: ${changeIn('ro', p, 'score-changed')} puncte. Îl vezi, întrebare cu întrebare, aici:`,
      { link: need(p, 'link', 'score-changed') },
    ],
  }),
  'result-changed': (p) => ({
    subject: `Rezultatul tău la ${need(p, 'phase', 'result-changed')} s-a schimbat`,
    blocks: [
      'Bună,',
      `Etapa ${need(p, 'phase', 'result-changed')} a fost redeschisă pentru o corectare și închisă din nou. Punctajul, locul, decizia de calificare sau premiul tău diferă acum de cele anunțate la prima închidere. Le vezi aici:`,
      { link: need(p, 'link', 'result-changed') },
    ],
  }),
  'review-reminder': (p) => ({
    subject: `Corectură de terminat: ${need(p, 'phase', 'review-reminder')}`,
    blocks: [
      'Bună ziua,',
      `La etapa ${need(p, 'phase', 'review-reminder')} mai aveți de dat ${countRo(need(p, 'open', 'review-reminder'), 'notă', 'note')} și ${countRo(need(p, 'mediations', 'review-reminder'), 'mediere', 'medieri')}. Lista lucrărilor este aici:`,
      { link: need(p, 'link', 'review-reminder') },
    ],
  }),
};

const en: Record<MailTemplate, (p: MailParams) => Content> = {
  'confirm-email': (p) => ({
    subject: `Confirm your e-mail address for ${PRODUCT}`,
    blocks: [
      'Hello,',
      `Thank you for creating a ${PRODUCT} account. Confirm your e-mail address by opening the link below:`,
      { link: need(p, 'link', 'confirm-email') },
      'If you did not create this account, please ignore this message.',
    ],
  }),
  'signup-existing': (p) => ({
    subject: `Attempt to create a ${PRODUCT} account`,
    blocks: [
      'Hello,',
      `Someone tried to create a ${PRODUCT} account with this e-mail address, but an account already exists for it.`,
      'If it was you, sign in or reset your password here:',
      { link: need(p, 'link', 'signup-existing') },
      'If it was not you, please ignore this message: your account has not been changed.',
    ],
  }),
  'reset-password': (p) => ({
    subject: `Reset your ${PRODUCT} password`,
    blocks: [
      'Hello,',
      `We received a request to reset the password of your ${PRODUCT} account. Open the link below to choose a new password; the link is valid for ${minutesEn(need(p, 'minutes', 'reset-password'))}.`,
      { link: need(p, 'link', 'reset-password') },
      'If you did not ask for this, please ignore this message: your password stays the same.',
    ],
  }),
  'account-activated': (p) => ({
    subject: `Your ${PRODUCT} account has been activated`,
    blocks: [
      'Hello,',
      `Your ${PRODUCT} account has been activated. You can sign in here:`,
      { link: need(p, 'link', 'account-activated') },
    ],
  }),
  'account-deactivated': (p) => ({
    subject: `Your ${PRODUCT} account has been deactivated`,
    blocks: [
      'Hello,',
      `Your ${PRODUCT} account has been deactivated. If you have questions, please contact your teacher or the competition organiser.`,
      ...(p.link ? [{ link: p.link }] : []),
    ],
  }),
  'login-link': (p) => ({
    subject: `Your ${PRODUCT} sign-in link`,
    blocks: [
      'Hello,',
      `Open the link below to sign in to ${PRODUCT}; the link is valid for ${minutesEn(need(p, 'minutes', 'login-link'))}.`,
      { link: need(p, 'link', 'login-link') },
      'If you did not ask for this link, please ignore this message.',
    ],
  }),
  'oidc-linked': (p) => ({
    subject: `Your ${PRODUCT} account can now be opened with ${need(p, 'label', 'oidc-linked')}`,
    blocks: [
      'Hello,',
      `Someone signed in to your ${PRODUCT} account through ${need(p, 'label', 'oidc-linked')}, with an account that has the same e-mail address. From now on, that account also opens your ${PRODUCT} account.`,
      'If it was you, there is nothing to do. If it was not you, change your password and tell the competition organiser:',
      { link: need(p, 'link', 'oidc-linked') },
    ],
  }),
  'score-published': (p) => ({
    subject: `Your result in ${need(p, 'test', 'score-published')} is ready`,
    blocks: [
      'Hello,',
      `Your paper in the test ${need(p, 'test', 'score-published')} has been marked. See your score question by question here:`,
      { link: need(p, 'link', 'score-published') },
    ],
  }),
  'score-changed': (p) => ({
    subject: `Your result in ${need(p, 'test', 'score-changed')} has changed`,
    blocks: [
      'Hello,',
      `Your score for question ${need(p, 'item', 'score-changed')} of the test ${need(p, 'test', 'score-changed')} changed ${causeIn('en', p)}: ${changeIn('en', p, 'score-changed')} points. See it question by question here:`,
      { link: need(p, 'link', 'score-changed') },
    ],
  }),
  'result-changed': (p) => ({
    subject: `Your result in ${need(p, 'phase', 'result-changed')} has changed`,
    blocks: [
      'Hello,',
      `The phase ${need(p, 'phase', 'result-changed')} was reopened for a correction and closed again. Your total, place, qualification decision or prize now differs from what was announced when it first closed. See them here:`,
      { link: need(p, 'link', 'result-changed') },
    ],
  }),
  'review-reminder': (p) => ({
    subject: `Marking to finish: ${need(p, 'phase', 'review-reminder')}`,
    blocks: [
      'Hello,',
      `In ${need(p, 'phase', 'review-reminder')} you still have ${countEn(need(p, 'open', 'review-reminder'), 'mark', 'marks')} and ${countEn(need(p, 'mediations', 'review-reminder'), 'mediation', 'mediations')} to give. The list of answers is here:`,
      { link: need(p, 'link', 'review-reminder') },
    ],
  }),
};

const signature: Record<Language, string> = { ro: `Echipa ${PRODUCT}`, en: `The ${PRODUCT} team` };

const escapeHtml = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** English for 'en' (and its regional variants); Romanian, the product's default, otherwise. */
export const mailLanguage = (locale: string | undefined | null): Language =>
  locale && /^en(?:[-_]|$)/i.test(locale) ? 'en' : 'ro';

/** Subject, plain text and HTML of a template; every parameter is escaped in the HTML. */
export function renderMail(
  template: MailTemplate,
  locale: string | undefined | null,
  params: MailParams,
): RenderedMail {
  const language = mailLanguage(locale);
  const { subject, blocks } = (language === 'en' ? en : ro)[template](params);
  const all: Block[] = [...blocks, signature[language]];
  const text = `${all.map((b) => (typeof b === 'string' ? b : b.link)).join('\n\n')}\n`;
  const paragraphs = all.map((b) =>
    typeof b === 'string'
      ? `<p>${escapeHtml(b)}</p>`
      : `<p><a href="${escapeHtml(b.link)}">${escapeHtml(b.link)}</a></p>`,
  );
  const html = [
    '<!doctype html>',
    `<html lang="${language}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family: sans-serif; line-height: 1.5">',
    ...paragraphs,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}
