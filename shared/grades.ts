import { GRADE_ABSOLVENT } from './constants.js';

const ROMAN = ['', 'I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X', 'XI', 'XII'];

/**
 * A grade as printed documents name it (GLOSSARY.md): "clasa pregătitoare", "clasa I",
 * "clasa a V-a", "clasa a XII-a", "absolvent" (99). Screens use the short form ("Clasa 5").
 */
export function schoolGradeName(grade: number): string {
  if (grade === GRADE_ABSOLVENT) return 'absolvent';
  if (grade === 0) return 'clasa pregătitoare';
  const roman = ROMAN[grade];
  if (!roman) return `clasa ${grade}`;
  return grade === 1 ? 'clasa I' : `clasa a ${roman}-a`;
}
