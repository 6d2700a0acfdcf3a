import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { UserData } from '../../../shared/schemas/users.js';
import { createdAt, tz } from '../../db/columns.js';

/** Everyone who signs in: students, teachers and admins (SPEC.md §3 User). */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    type: text('type', { enum: ['student', 'teacher', 'admin'] }).notNull(),
    state: text('state', { enum: ['active', 'inactive'] })
      .notNull()
      .default('inactive'),
    registered: boolean('registered').notNull().default(false),
    emailConfirmedAt: tz('email_confirmed_at'),
    givenName: text('given_name'),
    familyName: text('family_name'),
    givenNameNormalized: text('given_name_normalized'),
    familyNameNormalized: text('family_name_normalized'),
    locale: text('locale'),
    uiLocale: text('ui_locale', { enum: ['ro', 'en'] })
      .notNull()
      .default('ro'),
    picture: text('picture'),
    county: text('county'),
    /** Bucharest's sector (1–6) of a student living there; null elsewhere or not set yet. */
    bucharestSector: smallint('bucharest_sector'),
    country: text('country'),
    city: text('city'),
    school: text('school'),
    grade: integer('grade'),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    occupation: text('occupation'),
    teacherRef: uuid('teacher_ref').references((): AnyPgColumn => users.id),
    teacherCode: text('teacher_code'),
    discipline: text('discipline'),
    studentCentre: text('student_centre'),
    data: jsonb('data').$type<UserData>().notNull().default({ shortcuts: [] }),
    createdAt: createdAt(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
    deletedAt: tz('deleted_at'),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_teacher_code_key').on(t.teacherCode),
    index('users_teacher_ref_idx').on(t.teacherRef),
    index('users_type_family_name_idx').on(t.type, t.familyNameNormalized, t.id),
    index('users_type_county_idx').on(t.type, t.county),
    // Partial-match name search ("%pop%") on 50,000+ people without scanning the table.
    index('users_family_name_trgm_idx').using('gin', sql`${t.familyNameNormalized} gin_trgm_ops`),
    index('users_given_name_trgm_idx').using('gin', sql`${t.givenNameNormalized} gin_trgm_ops`),
  ],
);
