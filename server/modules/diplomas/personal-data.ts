import type { PersonalDataPart } from '../../lib/personal-data.js';
import { printedCode } from './diploma-content.js';
import * as repo from './diplomas.repo.js';

/**
 * The diplomas issued to a person: each one's code and what it printed (name, school, grade,
 * prize, competition, date). Anonymising erases the name, school and grade from them; the
 * public check then confirms the diploma and names nobody.
 */
export const diplomasPersonalData: PersonalDataPart = {
  name: 'diplomas',
  async collect(db, userId) {
    return (await repo.findIssuedTo(db, userId)).map((d) => ({
      code: printedCode(d.code),
      kind: d.kind,
      name: d.name,
      school: d.school,
      grade: d.grade,
      prize: d.prize,
      studentCount: d.studentCount,
      examName: d.examName,
      editionName: d.editionName,
      phaseName: d.phaseName,
      phaseId: d.phaseId,
      issuedAt: d.issuedAt.toISOString(),
      anonymisedAt: d.anonymisedAt?.toISOString() ?? null,
    }));
  },
  async anonymise(tx, userId) {
    await repo.anonymiseIssuedTo(tx, userId);
    return undefined;
  },
};
