// The events that write notifications, each in the transaction of what caused it: a mail the
// outbox queues (the same events as the mails), and the events that send no mail. Other
// modules call these through index.ts; only this module writes the table.
import { eq } from 'drizzle-orm';
import type { NotificationKind } from '../../../shared/schemas/notifications.js';
import type { Db } from '../../db/client.js';
import { editions, exams, phaseStudents, phases } from '../../db/schema.js';
import type { MailRequest } from '../../lib/mail/outbox.js';
import { insertNotifications, type NewNotification } from './notifications.repo.js';

/** The path of an absolute link a mail carries (notifications link inside the app only). */
function pathOf(link: string | undefined): string | null {
  if (!link) return null;
  try {
    const url = new URL(link);
    return `${url.pathname}${url.search}`;
  } catch {
    return link.startsWith('/') && !link.startsWith('//') ? link : null;
  }
}

/** Which mails also notify, and which of their parameters the text shows. */
const FROM_MAIL: Partial<Record<string, { kind: NotificationKind; params: string[] }>> = {
  // A test's results are published to the student when the whole paper is marked (online
  // tests without open questions show theirs at the finish): per test, not at the phase's close.
  'score-published': { kind: 'test-results-published', params: ['test'] },
  'score-changed': { kind: 'score-changed', params: ['test'] },
  'result-changed': { kind: 'result-changed', params: ['phase'] },
  'review-reminder': { kind: 'review-reminder', params: ['phase', 'open', 'mediations'] },
  'account-activated': { kind: 'account-activated', params: [] },
  'account-deactivated': { kind: 'account-deactivated', params: [] },
};

/**
 * Writes the notification of a mail being queued, in the mail's transaction, for the account
 * the mail is about. Mails anyone can ask for (confirmation, reset, sign-in link) notify nobody.
 */
export async function notifyFromMail(tx: Db, mail: MailRequest): Promise<void> {
  const known = FROM_MAIL[mail.template];
  if (!known || !mail.userId) return;
  const params: Record<string, string> = {};
  for (const name of known.params) {
    const value = mail.params?.[name];
    if (value !== undefined) params[name] = value;
  }
  await insertNotifications(tx, [
    {
      userId: mail.userId,
      kind: known.kind,
      params,
      link: known.kind === 'account-deactivated' ? null : pathOf(mail.params?.link),
    },
  ]);
}

async function editionNames(tx: Db, editionId: string) {
  const [row] = await tx
    .select({ exam: exams.name, edition: editions.name })
    .from(editions)
    .innerJoin(exams, eq(exams.id, editions.examId))
    .where(eq(editions.id, editionId));
  return row;
}

async function phaseNames(tx: Db, phaseId: string) {
  const [row] = await tx
    .select({
      exam: exams.name,
      examId: exams.id,
      editionId: editions.id,
      phase: phases.name,
    })
    .from(phases)
    .innerJoin(editions, eq(editions.id, phases.editionId))
    .innerJoin(exams, eq(exams.id, editions.examId))
    .where(eq(phases.id, phaseId));
  return row;
}

/** Tells each student newly enrolled in an edition, with the competition's name. */
export async function notifyEnrolled(
  tx: Db,
  editionId: string,
  studentIds: readonly string[],
): Promise<void> {
  if (studentIds.length === 0) return;
  const names = await editionNames(tx, editionId);
  if (!names) return;
  await insertNotifications(
    tx,
    studentIds.map((userId) => ({
      userId,
      kind: 'enrolled',
      params: { exam: names.exam, edition: names.edition },
      link: '/tests',
      dedupeKey: `enrolled:${editionId}`,
    })),
  );
}

/**
 * Tells every student of a phase that its results are final (the phase closed); each test's
 * own results are told as they are published (`test-results-published`, with its mail).
 */
export async function notifyResultsPublished(tx: Db, phaseId: string, at: Date): Promise<void> {
  const names = await phaseNames(tx, phaseId);
  if (!names) return;
  const students = await tx
    .select({ id: phaseStudents.studentId })
    .from(phaseStudents)
    .where(eq(phaseStudents.phaseId, phaseId));
  await insertNotifications(
    tx,
    students.map((s) => ({
      userId: s.id,
      kind: 'results-published',
      params: { exam: names.exam, phase: names.phase },
      link: '/tests',
      // A phase closed again after a reopening tells its changes by the result-changed mail.
      dedupeKey: `results:${phaseId}`,
    })),
    at,
  );
}

/** Tells each teacher given answers to mark in a phase (names only: no student, no count). */
export async function notifyMarkingAssigned(
  tx: Db,
  phaseId: string,
  teacherIds: readonly string[],
): Promise<void> {
  const unique = [...new Set(teacherIds)];
  if (unique.length === 0) return;
  const names = await phaseNames(tx, phaseId);
  if (!names) return;
  await insertNotifications(
    tx,
    unique.map((userId) => ({
      userId,
      kind: 'marking-assigned',
      params: { exam: names.exam, phase: names.phase },
      link: `/examene/${names.examId}/editii/${names.editionId}/phases/${phaseId}/corectare`,
      dedupeKey: `marking:${phaseId}`,
    })),
  );
}

export type { NewNotification };
