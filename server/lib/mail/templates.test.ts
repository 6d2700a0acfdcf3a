import { describe, expect, it } from 'vitest';
import { type MailTemplate, renderMail } from './templates.js';

const params = {
  link: 'http://podium.test/link',
  minutes: '60',
  label: 'Școala mea',
  phase: 'Etapa județeană',
  test: 'Proba scrisă',
  open: '1',
  mediations: '20',
};

/** Mails that any account may receive: a teacher or an organiser as well as a student. */
const TO_ANYONE: MailTemplate[] = [
  'confirm-email',
  'signup-existing',
  'reset-password',
  'account-activated',
  'account-deactivated',
  'login-link',
  'oidc-linked',
  'review-reminder',
];

/** Second-person singular forms ("tu") a Romanian mail to an adult must not use. */
const TU =
  /(?<!\p{L})(tu|tău|ta|tale|ai|ți|te|îți|ignoră|confirmă|autentifică|resetează)(?!\p{L})|-ți(?!\p{L})|-te(?!\p{L})/iu;

describe('mail texts', () => {
  it('say "dumneavoastră" in Romanian to whoever may receive them, not "tu"', () => {
    for (const template of TO_ANYONE) {
      const { subject, text } = renderMail(template, 'ro', params);
      expect(`${subject}\n${text}`, template).not.toMatch(TU);
      expect(text, template).toMatch(/^Bună ziua,/);
    }
  });

  it('count with the noun Romanian and English use for that number', () => {
    expect(renderMail('review-reminder', 'ro', params).text).toContain(
      'mai aveți de dat 1 notă și 20 de medieri',
    );
    expect(renderMail('review-reminder', 'en', params).text).toContain(
      'you still have 1 mark and 20 mediations',
    );
    expect(renderMail('reset-password', 'ro', params).text).toContain('valabil 60 de minute');
    expect(renderMail('login-link', 'ro', { ...params, minutes: '10' }).text).toContain(
      'valabil 10 minute',
    );
  });
});
