import { z } from 'zod';
import {
  COUNTIES,
  GRADES,
  MAX_EMAIL_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PASSWORD_LENGTH,
  MAX_TEXT_LENGTH,
  MIN_PASSWORD_LENGTH,
  MIN_TEXT_LENGTH,
} from '../constants.js';
import { MAX_PICTURE_URL_LENGTH, safePictureUrl } from '../picture.js';
import { EMAIL_RE, isSingleLineText, isStorableText } from '../text-input.js';

/**
 * Field building blocks. Every message is a field code (shared/errors.ts FIELD_CODES): forms
 * show `error_<code>`, and the server sends the same codes in VALIDATION_FAILED details.
 */

export { EMAIL_RE };

/**
 * Single-line text (names, school, city, titles, categories): no control or bidirectional
 * characters (`invalid_characters`, shared/text-input.ts), so what is stored shows as typed.
 */
export const requiredText = (max = MAX_TEXT_LENGTH, min = MIN_TEXT_LENGTH) =>
  z
    .string({ error: 'required' })
    .trim()
    .min(1, 'required')
    .min(min, 'too_short')
    .max(max, 'too_long')
    .refine(isSingleLineText, 'invalid_characters');

export const optionalText = (max = MAX_TEXT_LENGTH) =>
  z
    .string({ error: 'invalid' })
    .trim()
    .max(max, 'too_long')
    .refine(isSingleLineText, 'invalid_characters')
    .optional();

/** Text that may run over several lines (descriptions, reasons): line breaks and tabs kept. */
export const requiredMultilineText = (max = MAX_TEXT_LENGTH, min = MIN_TEXT_LENGTH) =>
  z
    .string({ error: 'required' })
    .trim()
    .min(1, 'required')
    .min(min, 'too_short')
    .max(max, 'too_long')
    .refine(isStorableText, 'invalid_characters');

export const optionalMultilineText = (max = MAX_TEXT_LENGTH) =>
  z
    .string({ error: 'invalid' })
    .trim()
    .max(max, 'too_long')
    .refine(isStorableText, 'invalid_characters')
    .optional();

export const nameField = () => requiredText(MAX_NAME_LENGTH);

export const emailField = () =>
  z
    .string({ error: 'required' })
    .trim()
    .toLowerCase()
    .min(1, 'required')
    .max(MAX_EMAIL_LENGTH, 'too_long')
    .regex(EMAIL_RE, 'invalid_email')
    .refine(isSingleLineText, 'invalid_characters');

export const passwordField = () =>
  z
    .string({ error: 'required' })
    .min(1, 'required')
    .min(MIN_PASSWORD_LENGTH, 'password_too_short')
    .max(MAX_PASSWORD_LENGTH, 'too_long');

export const countyField = () => z.enum(COUNTIES, { error: 'required' });
/** Bucharest's sector, 1 to 6 (BUCHAREST_SECTORS). */
export const sectorField = () =>
  z.number({ error: 'required' }).int('invalid').min(1, 'invalid').max(6, 'invalid');

export const gradeField = () =>
  z
    .number({ error: 'required' })
    .int('invalid')
    .refine((g) => (GRADES as readonly number[]).includes(g), 'invalid');

/** A calendar date as YYYY-MM-DD that really exists (no 2010-02-30). */
export const dateField = () =>
  z
    .string({ error: 'required' })
    .trim()
    .min(1, 'required')
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'invalid_date')
    .refine((s) => {
      const d = new Date(`${s}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
    }, 'invalid_date');

/** Team codes: 3–20 letters, digits or dashes, stored upper-case. */
export const teacherCodeField = () =>
  z
    .string({ error: 'required' })
    .trim()
    .toUpperCase()
    .min(1, 'presence')
    .min(3, 'too_short')
    .max(20, 'too_long')
    .regex(/^[A-Z0-9-]+$/, 'invalid');

export const uuidField = () => z.uuid({ error: 'invalid' });

/** A profile picture: an https image address only (`url_not_https`; shared/picture.ts). */
export const pictureField = () =>
  z
    .string({ error: 'invalid' })
    .trim()
    .max(MAX_PICTURE_URL_LENGTH, 'too_long')
    .refine((url) => safePictureUrl(url) !== null, 'url_not_https');
