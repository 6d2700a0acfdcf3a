import type { TFunction } from 'i18next';
import { CountyText } from '../pickers/SectorSelect.js';
import type { Column } from './PagedTable.js';

/** What every list of a competition's students shows about a student. */
export type StudentRowFields = {
  familyName: string | null;
  givenName: string | null;
  studentCounty: string | null;
  /** Lists that know it: a Bucharest student's sector (null: not set). */
  studentSector?: number | null;
  studentGrade: number | null;
  school: string | null;
  studentCentre?: string | null;
};

type StudentColumnId = 'familyName' | 'givenName' | 'county' | 'grade' | 'school' | 'centre';

/**
 * The shared columns of the edition, phase and test student lists, in the order asked for;
 * each list adds its own (results, status, actions) after them.
 */
export function studentColumns<T extends StudentRowFields>(
  t: TFunction,
  ids: StudentColumnId[],
  { schoolWidth = 180 }: { schoolWidth?: number } = {},
): Column<T>[] {
  const all: Record<StudentColumnId, Column<T>> = {
    familyName: {
      id: 'familyName',
      label: t('fields.familyName'),
      sortField: 'familyName',
      render: (s) => s.familyName,
    },
    givenName: {
      id: 'givenName',
      label: t('fields.givenName'),
      sortField: 'givenName',
      render: (s) => s.givenName,
    },
    county: {
      id: 'county',
      label: t('fields.county'),
      sortField: 'studentCounty',
      render: (s) =>
        s.studentSector === undefined ? (
          s.studentCounty
        ) : (
          <CountyText county={s.studentCounty} sector={s.studentSector} />
        ),
    },
    grade: {
      id: 'grade',
      label: t('fields.grade'),
      sortField: 'studentGrade',
      noWrap: true,
      render: (s) => (s.studentGrade === null ? '' : t(`grades.${s.studentGrade}`)),
    },
    school: {
      id: 'school',
      label: t('fields.school'),
      sortField: 'school',
      maxWidth: schoolWidth,
      title: (s) => s.school,
      render: (s) => s.school,
    },
    centre: {
      id: 'centre',
      label: t('exams.students.centre'),
      sortField: 'studentCentre',
      render: (s) => s.studentCentre,
    },
  };
  return ids.map((id) => all[id]);
}
