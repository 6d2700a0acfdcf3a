import type { Db } from '../../db/client.js';
import {
  editionCoordinators,
  editionStudents,
  editions,
  exams,
  examTeachers,
  phaseStudents,
  phases,
} from '../../db/schema.js';
import { uuidv7 } from '../../lib/ids.js';

/**
 * Competitions, editions, roles and enrolments written straight to the database, for the
 * people tests' scope rules (the exams module owns the real API for these).
 */
export function peopleFixtures(db: Db) {
  return {
    async exam(name = 'Olimpiada de Matematică') {
      const id = uuidv7();
      await db
        .insert(exams)
        .values({ id, name, nameNormalized: name.toLowerCase(), subject: 'math' });
      return id;
    },
    async edition(examId: string, name = '2025') {
      const id = uuidv7();
      await db.insert(editions).values({ id, examId, name });
      return id;
    },
    async examRole(examId: string, teacherId: string, role: 'admin' | 'staff') {
      await db.insert(examTeachers).values({ examId, teacherId, role });
    },
    async coordinator(editionId: string, teacherId: string) {
      await db.insert(editionCoordinators).values({ editionId, teacherId });
    },
    async enrol(editionId: string, studentId: string) {
      await db.insert(editionStudents).values({ editionId, studentId });
    },
    async phaseResult(editionId: string, studentId: string) {
      const phaseId = uuidv7();
      await db.insert(phases).values({
        id: phaseId,
        editionId,
        name: 'Etapa pe școală',
        type: 'online',
        startDate: new Date('2025-03-01T08:00:00Z'),
        endDate: new Date('2025-03-01T12:00:00Z'),
      });
      await db.insert(phaseStudents).values({ phaseId, studentId, result: 'admitted' });
    },
  };
}
