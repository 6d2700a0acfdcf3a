import { safePictureUrl } from '../../../shared/picture.js';
import type { User, UserData } from '../../../shared/schemas/users.js';
import type { PersonRow } from './users.repo.js';

export type UserDtoExtras = {
  /** Filled only when a list asks for the relation (`include: studentEditions`). */
  studentEditions?: { editionId: string }[];
  /** A student's team code: their coordinating teacher's `teacherCode`. */
  teamCode?: string | null;
};

/**
 * The API's view of a user (SPEC.md §3): never the password hash, tokens or deletion marks.
 * A teacher's `teacherCode` is their own; a student's is their coordinating teacher's (the
 * team code, `teamCode`), read by the caller with the teacher (`describeUsers`).
 */
export function toUserDto(
  row: PersonRow,
  { studentEditions = [], teamCode = null }: UserDtoExtras = {},
): User {
  const data = (row.data ?? { shortcuts: [] }) as UserData;
  return {
    _id: row.id,
    email: row.email,
    givenName: row.givenName,
    familyName: row.familyName,
    givenNameNormalized: row.givenNameNormalized,
    familyNameNormalized: row.familyNameNormalized,
    locale: row.locale,
    uiLocale: row.uiLocale,
    // Stored before the rule, a `javascript:` or `data:` picture is not handed to any screen.
    picture: safePictureUrl(row.picture),
    type: row.type,
    role: [row.type],
    state: row.state,
    registered: row.registered,
    emailConfirmed: row.emailConfirmedAt !== null,
    county: row.county,
    bucharestSector: row.bucharestSector,
    country: row.country,
    city: row.city,
    school: row.school,
    grade: row.grade,
    dateOfBirth: row.dateOfBirth,
    occupation: row.occupation,
    teacherRef: row.teacherRef,
    teacherCode: row.type === 'student' ? teamCode : row.teacherCode,
    discipline: row.discipline,
    studentCentre: row.studentCentre,
    studentEditions,
    data: {
      shortcuts: data.shortcuts ?? [],
      ...(data.settings ? { settings: data.settings } : {}),
    },
    createdAt: row.createdAt.toISOString(),
  };
}
