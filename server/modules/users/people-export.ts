import ExcelJS from 'exceljs';
import { GRADE_ABSOLVENT, sectorCell } from '../../../shared/constants.js';
import type { StudentExportRow } from './students.repo.js';
import type { TeacherRow } from './teachers.repo.js';

/**
 * Spreadsheets of people. Headers are fixed Romanian column names (the file is read by
 * organisers in Romania whatever the interface language), written as UTF-8 so diacritics stay.
 */

type Column<R> = { header: string; width: number; value: (row: R) => string | number | null };

const STATE_LABEL = { active: 'Activ', inactive: 'Inactiv' } as const;
const gradeLabel = (grade: number | null) =>
  grade === null ? null : grade === GRADE_ABSOLVENT ? 'Absolvent' : grade;
const fullName = (family: string | null, given: string | null) =>
  [family, given].filter(Boolean).join(' ') || null;

export const STUDENT_COLUMNS: Column<StudentExportRow>[] = [
  { header: 'Nume', width: 20, value: (r) => r.familyName },
  { header: 'Prenume', width: 20, value: (r) => r.givenName },
  { header: 'E-mail', width: 30, value: (r) => r.email },
  { header: 'Țara', width: 12, value: (r) => r.country },
  { header: 'Județ', width: 16, value: (r) => r.county },
  { header: 'Localitate', width: 18, value: (r) => r.city },
  { header: 'Școala', width: 36, value: (r) => r.school },
  { header: 'Clasa', width: 10, value: (r) => gradeLabel(r.grade) },
  { header: 'Data nașterii', width: 14, value: (r) => r.dateOfBirth },
  { header: 'Limba', width: 8, value: (r) => r.locale },
  {
    header: 'Profesor coordonator',
    width: 26,
    value: (r) => fullName(r.teacherFamilyName, r.teacherGivenName),
  },
  { header: 'Cod profesor', width: 14, value: (r) => r.teacherCodeOfTeacher },
  { header: 'Centru de examen', width: 20, value: (r) => r.studentCentre },
  { header: 'Stare', width: 10, value: (r) => STATE_LABEL[r.state] },
  // Bucharest's sector, or a note that it is missing, so an organiser can complete it.
  {
    header: 'Sector',
    width: 14,
    value: (r) => sectorCell(r.county, r.bucharestSector),
  },
];

export const TEACHER_COLUMNS: Column<TeacherRow>[] = [
  { header: 'Nume', width: 20, value: (r) => r.familyName },
  { header: 'Prenume', width: 20, value: (r) => r.givenName },
  { header: 'E-mail', width: 30, value: (r) => r.email },
  { header: 'Țara', width: 12, value: (r) => r.country },
  { header: 'Județ', width: 16, value: (r) => r.county },
  { header: 'Localitate', width: 18, value: (r) => r.city },
  { header: 'Școala', width: 36, value: (r) => r.school },
  { header: 'Disciplina', width: 16, value: (r) => r.discipline },
  { header: 'Cod profesor', width: 14, value: (r) => r.teacherCode },
  { header: 'Membru comisie', width: 16, value: (r) => (r.isStaff ? 'Da' : 'Nu') },
  { header: 'Administrator concurs', width: 22, value: (r) => (r.isExamAdmin ? 'Da' : 'Nu') },
  { header: 'Stare', width: 10, value: (r) => STATE_LABEL[r.state] },
];

/** One sheet: a bold header row, then one row per person, in the order given. */
export async function buildSheet<R>(
  sheetName: string,
  columns: Column<R>[],
  rows: R[],
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Podium';
  const sheet = workbook.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({ header: c.header, width: c.width }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) sheet.addRow(columns.map((c) => c.value(row)));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
