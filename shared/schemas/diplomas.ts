import { z } from 'zod';
import { MAX_URL_LENGTH } from './exams.js';
import { uuidField } from './fields.js';
import { PRIZES } from './rankings.js';

/**
 * Diplomas (SPEC.md §7 Diploma) under `/api/v1/diploma-generator`. Diplomas are printed in
 * Romanian, the document language of the competitions (as test papers are); the web pages
 * around them are in both languages.
 *
 * - `POST /diplomas` with `DiplomaRequest` → `application/pdf` (inline, one A4 landscape page;
 *   a teacher's diploma continues on more pages when their students do not fit). The person
 *   `userId` decides the kind: a student's diploma (their prize, mention or participation) or a
 *   coordinating teacher's diploma listing the students of theirs (team, `teacherRef`) who took
 *   part, with their prizes. Each carries a verification code and a QR code of
 *   `{origin}/diploma/verificare/{code}`; the origin is the configured one (PUBLIC_ORIGIN or
 *   one of LINK_ORIGINS), never the request's `callbackUrl`, which is accepted for clients
 *   written against SPEC.md and otherwise unused. The same person and phase always get the same
 *   code. Who may: the student themself; the teacher themself and their own students'
 *   diplomas; an edition's coordinators their own students; platform admins, the exam's admins
 *   and staff anyone's. Otherwise 403 OPERATION_NOT_PERMITTED (the web shows
 *   `msg_no_rights_download_diploma`). 404 NOT_FOUND: no such phase, or the person has no
 *   result in it (a teacher: no student of theirs has). 409 RESULTS_NOT_FINAL until the phase
 *   is closed (closing makes results and prizes final). 503 PDF_UNAVAILABLE when the diploma
 *   fonts are missing.
 * - `GET /my-diplomas` → `MyDiploma[]`: a student's diplomas; a teacher's own and their
 *   students' (newest phase first).
 * - `POST /jobs` with `DiplomaJobRequest` → 202 `DiplomaJob`: every diploma of a phase
 *   (platform admins, the exam's admins and staff), or of one teacher's students and that
 *   teacher (`teacherId`: the teacher themself, a coordinator of the edition for their own
 *   students, or staff for anyone), made in the background into one ZIP. 409
 *   RESULTS_NOT_FINAL as above.
 * - `GET /jobs` → the caller's `DiplomaJob[]` (newest first, at most 20);
 *   `GET /jobs/{jobId}` → `DiplomaJob` (poll it: `done` of `total` diplomas);
 *   `GET /jobs/{jobId}/file` → `application/zip` once `state` is `done` (409 DIPLOMA_JOB_NOT_READY
 *   before; 404 for another person's job). Files are kept DIPLOMA_JOB_KEEP_HOURS.
 * - `GET /verify/{code}` (no sign-in; dashes and letter case ignored) → `DiplomaVerification`:
 *   only what the diploma itself prints (name, competition, edition, phase, grade, school on a
 *   student's diploma, prize, date), never an e-mail, birth date or id. 404 NOT_FOUND for an
 *   unknown code; limited to DIPLOMA_VERIFY_PER_MINUTE requests a minute per address.
 *   `replacedAt` once a reissued diploma replaced it.
 * - `GET /stale?examId&editionId&phaseId` → `StaleDiploma[]`: the phase's diplomas printed
 *   before a reopened phase closed again and changed the result they print (a student's own,
 *   or a teacher's listing such a student). The competition's admins and staff; else 403.
 * - `POST /reissue` with `DiplomaReissueRequest` → `DiplomaReissued`: such a diploma replaced
 *   by a new one (new code, today's date and results), audited; the old code's check then says
 *   it was replaced. 409 DIPLOMA_NOT_STALE when the person's diploma is not out of date; 404
 *   when they have none in the phase. Who: as `GET /stale`.
 */

export const DIPLOMA_KINDS = ['student', 'teacher'] as const;
export type DiplomaKind = (typeof DIPLOMA_KINDS)[number];

export const DIPLOMA_JOB_STATES = ['queued', 'running', 'done', 'failed'] as const;
export type DiplomaJobState = (typeof DIPLOMA_JOB_STATES)[number];

/** Verification codes: 12 characters of Crockford's base32, shown as `XXXX-XXXX-XXXX`. */
export const DIPLOMA_CODE_PATTERN =
  /^[0-9A-HJKMNP-TV-Z]{4}-?[0-9A-HJKMNP-TV-Z]{4}-?[0-9A-HJKMNP-TV-Z]{4}$/i;
/** The web page a diploma's QR code opens. */
export const diplomaVerifyPath = (code: string) => `/diploma/verificare/${code}`;
export const DIPLOMA_JOB_KEEP_HOURS = 24;
export const DIPLOMA_VERIFY_PER_MINUTE = 60;

/** `POST /diplomas` (SPEC.md §7). */
export const diplomaRequestSchema = z
  .object({
    examId: uuidField(),
    editionId: uuidField(),
    phaseId: uuidField(),
    userId: uuidField(),
    /** SPEC.md: the site origin plus '/' plus the user type. Accepted, not used for links. */
    callbackUrl: z.string({ error: 'invalid' }).max(MAX_URL_LENGTH, 'too_long').optional(),
  })
  .strict();
export type DiplomaRequest = z.input<typeof diplomaRequestSchema>;

/** `POST /jobs`: a phase's diplomas, or one teacher's (with their students'). */
export const diplomaJobRequestSchema = z
  .object({
    examId: uuidField(),
    editionId: uuidField(),
    phaseId: uuidField(),
    teacherId: uuidField().optional(),
  })
  .strict();
export type DiplomaJobRequest = z.input<typeof diplomaJobRequestSchema>;

/** A background ZIP of diplomas and how far it got. */
export const diplomaJobSchema = z.object({
  _id: z.string(),
  examId: z.string(),
  editionId: z.string(),
  phaseId: z.string(),
  teacherId: z.string().nullable(),
  state: z.enum(DIPLOMA_JOB_STATES),
  /** Diplomas to make, and made so far. */
  total: z.number(),
  done: z.number(),
  /** The ZIP's name once done, e.g. `diplome-etapa-judeteana.zip`. */
  fileName: z.string().nullable(),
  /** Why it failed (an error code), when `failed`. */
  errorCode: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type DiplomaJob = z.infer<typeof diplomaJobSchema>;

/**
 * `GET /verify/{code}`: the diploma as it was printed, and nothing else about the person. Once
 * the holder was anonymised at their request, it confirms only the diploma: `anonymised` true,
 * no name, school or grade.
 */
export const diplomaVerificationSchema = z.object({
  code: z.string(),
  kind: z.enum(DIPLOMA_KINDS),
  /** The name as printed ("Ana Țurcanu"); null once the holder was anonymised. */
  name: z.string().nullable().meta({
    description: 'The name as printed; null once the holder was anonymised at their request.',
  }),
  examName: z.string(),
  editionName: z.string(),
  phaseName: z.string(),
  /**
   * A student's grade as printed (the number; documents print "clasa a V-a"); null for a
   * teacher and once anonymised.
   */
  grade: z.number().nullable(),
  /** The school as printed on a student's diploma; null on a teacher's and once anonymised. */
  school: z.string().nullable(),
  /** null: participation (a teacher's diploma has none). */
  prize: z.enum(PRIZES).nullable(),
  /** A teacher's diploma: how many students it lists. */
  studentCount: z.number().nullable(),
  issuedAt: z.string(),
  /** The holder's data was erased at their request: the diploma is valid, its holder unnamed. */
  /** When a reissued diploma replaced this one (its result changed); null while in force. */
  replacedAt: z
    .string()
    .nullable()
    .meta({
      description:
        'When a reissued diploma replaced this one (the result it printed was corrected); the ' +
        'paper is then out of date. null while it is in force.',
    }),
  anonymised: z.boolean().meta({
    description:
      "The holder's data was erased at their request: the diploma is valid, but name, school " +
      'and grade are not given.',
  }),
});
export type DiplomaVerification = z.infer<typeof diplomaVerificationSchema>;

/** `GET /stale`'s query: the phase. */
export const diplomaPhaseQuerySchema = z
  .object({ examId: uuidField(), editionId: uuidField(), phaseId: uuidField() })
  .strict();
export type DiplomaPhaseQuery = z.input<typeof diplomaPhaseQuerySchema>;

/** A printed diploma whose result changed when its reopened phase closed again. */
export const staleDiplomaSchema = z.object({
  code: z.string(),
  userId: z.string(),
  kind: z.enum(DIPLOMA_KINDS),
  /** As printed. */
  name: z.string(),
  /** The prize it printed (a student's). */
  prize: z.enum(PRIZES).nullable(),
  issuedAt: z.string(),
  /** When the phase closed again with a changed result. */
  staleAt: z.string(),
});
export type StaleDiploma = z.infer<typeof staleDiplomaSchema>;

/** `POST /reissue`: the person whose out-of-date diploma of the phase is replaced. */
export const diplomaReissueRequestSchema = z
  .object({
    examId: uuidField(),
    editionId: uuidField(),
    phaseId: uuidField(),
    userId: uuidField(),
  })
  .strict();
export type DiplomaReissueRequest = z.input<typeof diplomaReissueRequestSchema>;

/** The new diploma and the one it replaced (codes as printed). */
export const diplomaReissuedSchema = z.object({
  code: z.string(),
  replaces: z.string(),
  userId: z.string(),
  kind: z.enum(DIPLOMA_KINDS),
  prize: z.enum(PRIZES).nullable(),
  issuedAt: z.string(),
});
export type DiplomaReissued = z.infer<typeof diplomaReissuedSchema>;

/** `GET /my-diplomas`: a diploma the caller may download. */
export const myDiplomaSchema = z.object({
  examId: z.string(),
  examName: z.string(),
  editionId: z.string(),
  editionName: z.string(),
  phaseId: z.string(),
  phaseName: z.string(),
  /** Whose diploma: the caller, or a student of theirs. */
  userId: z.string(),
  familyName: z.string().nullable(),
  givenName: z.string().nullable(),
  kind: z.enum(DIPLOMA_KINDS),
  grade: z.number().nullable(),
  prize: z.enum(PRIZES).nullable(),
  /** The phase is closed: the diploma can be downloaded. */
  available: z.boolean(),
});
export type MyDiploma = z.infer<typeof myDiplomaSchema>;
