import type { FieldCode, ValidationIssue } from '../../../shared/errors.js';
import { isStorableText } from '../../../shared/text-input.js';
import { validationFailed } from '../errors.js';
import type { FieldType, Scalar } from './types.js';

export type Path = ValidationIssue['path'];

/** Longest string value a filter may carry (names, like patterns, ids). */
export const MAX_STRING_LENGTH = 1000;

/** Every rejection of filter input goes through here: one VALIDATION_FAILED issue. */
export function reject(path: Path, code: FieldCode = 'invalid'): never {
  throw validationFailed([{ code, path }]);
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  !(value instanceof Date) &&
  !(value instanceof RegExp);

/**
 * A string PostgreSQL can hold as text: bounded, no NUL, well-formed UTF-16. The JSON of
 * `filter`/`where` is text inside a query parameter, so its strings are checked here, where it
 * is parsed, rather than by the edge check of the raw query (server/lib/text-input.ts).
 */
export function checkText(value: unknown, path: Path, max = MAX_STRING_LENGTH): string {
  if (typeof value !== 'string') return reject(path);
  if (value.length > max) return reject(path, 'too_long');
  if (!isStorableText(value)) return reject(path, 'invalid_characters');
  return value;
}

const NUMERIC = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkNumber(value: unknown, path: Path): number {
  // Numeric strings are accepted the way LoopBack coerces query-string values.
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.length <= 40 && NUMERIC.test(value)
        ? Number(value)
        : Number.NaN;
  if (!Number.isFinite(n)) return reject(path, 'not_number');
  return Object.is(n, -0) ? 0 : n;
}

function checkBoolean(value: unknown, path: Path): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return reject(path);
}

const inRange = (date: Date) => {
  const year = date.getUTCFullYear();
  return !Number.isNaN(date.getTime()) && year >= 1 && year <= 9999;
};

const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * ISO 8601 date or date-time → Date. A time without an offset is read as UTC (never the
 * server's zone). Years 0001–9999 only, so PostgreSQL always accepts the value.
 */
export function parseIsoDate(text: string): Date | undefined {
  const m = ISO_DATE.exec(text);
  if (!m) return undefined;
  const part = (i: number) => Number(m[i] ?? 0);
  const [year, month, day, hour, minute, second] = [
    part(1),
    part(2),
    part(3),
    part(4),
    part(5),
    part(6),
  ];
  const millis = Math.floor(Number(`0.${m[7] ?? '0'}`) * 1000);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  date.setUTCHours(hour, minute, second, millis);
  const zone = m[8];
  if (zone && zone !== 'Z') {
    const [oh, om] = [Number(zone.slice(1, 3)), Number(zone.slice(-2))];
    if (oh > 23 || om > 59) return undefined;
    const offset = (oh * 60 + om) * (zone[0] === '-' ? -1 : 1);
    date.setTime(date.getTime() - offset * 60_000);
  }
  return inRange(date) ? date : undefined;
}

function checkDate(value: unknown, path: Path): Date {
  if (value instanceof Date) return inRange(value) ? value : reject(path, 'invalid_date');
  const date = typeof value === 'string' && value.length <= 40 ? parseIsoDate(value) : undefined;
  return date ?? reject(path, 'invalid_date');
}

/** A value of the field's type (for `stringArray`, one element), else VALIDATION_FAILED. */
export function checkValue(type: FieldType, value: unknown, path: Path): Scalar {
  switch (type) {
    case 'string':
    case 'stringArray':
      return checkText(value, path);
    case 'number':
      return checkNumber(value, path);
    case 'boolean':
      return checkBoolean(value, path);
    case 'date':
      return checkDate(value, path);
    case 'uuid':
      return typeof value === 'string' && UUID.test(value) ? value.toLowerCase() : reject(path);
  }
}
