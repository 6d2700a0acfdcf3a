import type {
  CmsCredential,
  ExternalRegistration,
  OpenExam,
} from '../../../shared/schemas/exams.js';
import type { Db } from '../../db/client.js';
import { appendAudit } from '../../lib/audit.js';
import type { Actor } from '../../lib/auth-guard.js';
import { AppError, notFound } from '../../lib/errors.js';
import { lockEdition } from './editions.repo.js';
import * as enrolmentRepo from './enrolment.repo.js';
import { enrolInEdition, isEligibleStudent } from './enrolment.service.js';
import * as repo from './open-exams.repo.js';
import { addToPhase, type PhaseRow } from './phases.repo.js';
import { removeEnrolments } from './registration.js';

export type OpenExamsDeps = { db: Db };

function toOpenExamDto(row: repo.EditionWithExam, phase: PhaseRow, registered: boolean): OpenExam {
  return {
    _id: row.editionId,
    editionId: row.editionId,
    editionName: row.editionName,
    year: row.year,
    termsUrl: row.termsUrl,
    examId: row.examId,
    examName: row.examName,
    subject: row.subject,
    description: row.description,
    grades: [...row.grades].sort((a, b) => a - b),
    phaseId: phase.id,
    phaseName: phase.name,
    startDate: phase.startDate.toISOString(),
    endDate: phase.endDate.toISOString(),
    registered,
  };
}

const closed = () => new AppError('REGISTRATION_CLOSED', 'Registration is not open');

export function openExamsService({ db }: OpenExamsDeps) {
  async function studentFacts(actor: Actor): Promise<enrolmentRepo.StudentFacts> {
    const [facts] = await enrolmentRepo.findStudentFacts(db, [actor.id]);
    if (!facts) throw notFound('student');
    return facts;
  }

  /** The edition, if the student could sign up for it (live, active, their grade); else 404. */
  async function signupEdition(
    facts: enrolmentRepo.StudentFacts,
    editionId: string,
  ): Promise<repo.EditionWithExam> {
    const row = await repo.findEditionWithExam(db, editionId);
    if (row?.state !== 'active' || !isEligibleStudent(facts, row.grades)) {
      throw notFound('edition');
    }
    return row;
  }

  return {
    /** Editions taking sign-ups for the student's grade, each with `registered`. */
    async listOpenExams(actor: Actor): Promise<OpenExam[]> {
      const facts = await studentFacts(actor);
      if (facts.grade === null) return [];
      const rows = await repo.findOpenEditions(db, facts.grade);
      const ids = rows.map((r) => r.editionId);
      const phases = await repo.findRegistrationPhases(db, ids);
      const enrolled = await repo.findEnrolledEditionIds(db, actor.id, ids);
      return rows.flatMap((row) => {
        const phase = phases.find((p) => p.editionId === row.editionId);
        return phase ? [toOpenExamDto(row, phase, enrolled.has(row.editionId))] : [];
      });
    },

    /**
     * Signs the student up while a phase of the edition takes sign-ups (else
     * REGISTRATION_CLOSED): enrolment with CMS credentials, the first phase if open, and every
     * phase taking sign-ups. Signing up twice changes nothing.
     */
    async register(actor: Actor, editionId: string): Promise<OpenExam> {
      const facts = await studentFacts(actor);
      const row = await signupEdition(facts, editionId);
      return db.transaction(async (tx) => {
        if (!(await lockEdition(tx, editionId, 'share'))) throw notFound('edition');
        const phases = await repo.findRegistrationPhases(tx, [editionId]);
        const [first] = phases;
        if (!first) throw closed();
        const added = await enrolInEdition(tx, editionId, [facts], actor.id);
        for (const phase of phases) await addToPhase(tx, phase.id, [actor.id], 'signup');
        if (added.length > 0) {
          await appendAudit(tx, {
            actorId: actor.id,
            action: 'edition.signup',
            entityType: 'edition',
            entityId: editionId,
            after: { studentId: actor.id, phaseIds: phases.map((p) => p.id) },
          });
        }
        return toOpenExamDto(row, first, true);
      });
    },

    /**
     * Withdraws the student while sign-ups are open (else REGISTRATION_CLOSED), unless they
     * already have a result in the edition (STUDENT_HAS_RESULTS). Idempotent.
     */
    async unregister(actor: Actor, editionId: string): Promise<OpenExam> {
      const facts = await studentFacts(actor);
      const row = await repo.findEditionWithExam(db, editionId);
      if (!row) throw notFound('edition');
      return db.transaction(async (tx) => {
        if (!(await lockEdition(tx, editionId, 'share'))) throw notFound('edition');
        const [first] = await repo.findRegistrationPhases(tx, [editionId]);
        if (!first) throw closed();
        const [enrolment] = await enrolmentRepo.findEnrolments(tx, editionId, [facts.id]);
        if (!enrolment) return toOpenExamDto(row, first, false);
        const withResults = await enrolmentRepo.findStudentsWithResults(tx, editionId, [facts.id]);
        if (withResults.size > 0) {
          throw new AppError('STUDENT_HAS_RESULTS', 'The student already has results');
        }
        await removeEnrolments(tx, editionId, [facts.id]);
        await appendAudit(tx, {
          actorId: actor.id,
          action: 'edition.unregister',
          entityType: 'edition',
          entityId: editionId,
          before: { studentId: facts.id, grade: enrolment.grade },
        });
        return toOpenExamDto(row, first, false);
      });
    },

    /** The student's own accounts on the external judge, one per enrolment. */
    async myCmsCredentials(actor: Actor): Promise<CmsCredential[]> {
      const rows = await enrolmentRepo.findStudentEnrolments(db, actor.id);
      return rows.flatMap((r) =>
        r.cmsUsername && r.cmsPassword
          ? [
              {
                examId: r.examId,
                examName: r.examName,
                editionId: r.editionId,
                editionName: r.editionName,
                username: r.cmsUsername,
                password: r.cmsPassword,
              },
            ]
          : [],
      );
    },

    /** The student's enrolments with their exam and edition names. */
    async myRegistrations(actor: Actor): Promise<ExternalRegistration[]> {
      const rows = await enrolmentRepo.findStudentEnrolments(db, actor.id);
      return rows.map((r) => ({
        editionId: r.editionId,
        editionName: r.editionName,
        year: r.year,
        examId: r.examId,
        examName: r.examName,
        subject: r.subject,
        grade: r.grade,
        studentCentre: r.studentCentre,
        createdAt: r.createdAt.toISOString(),
      }));
    },
  };
}

export type OpenExamsService = ReturnType<typeof openExamsService>;
