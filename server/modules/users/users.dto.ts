import type { User, UserData } from '../../../shared/schemas/users.js';
import type { UserRow } from './users.repo.js';

/** The API's view of a user (SPEC.md §3): never the password hash, tokens or deletion marks. */
export function toUserDto(row: UserRow, studentEditions: { editionId: string }[] = []): User {
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
    picture: row.picture,
    type: row.type,
    role: [row.type],
    state: row.state,
    registered: row.registered,
    emailConfirmed: row.emailConfirmedAt !== null,
    county: row.county,
    country: row.country,
    city: row.city,
    school: row.school,
    grade: row.grade,
    dateOfBirth: row.dateOfBirth,
    occupation: row.occupation,
    teacherRef: row.teacherRef,
    teacherCode: row.teacherCode,
    discipline: row.discipline,
    studentCentre: row.studentCentre,
    // Filled only when a list asks for the relation (`include: studentEditions`).
    studentEditions,
    data: {
      shortcuts: data.shortcuts ?? [],
      ...(data.settings ? { settings: data.settings } : {}),
    },
    createdAt: row.createdAt.toISOString(),
  };
}
