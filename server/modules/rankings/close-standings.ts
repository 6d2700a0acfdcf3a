import type { Standing, StandingChange } from '../../../shared/schemas/phase-reopen.js';
import type { Db } from '../../db/client.js';
import type { MailOutbox } from '../../lib/mail/outbox.js';
import * as repo from './close-standings.repo.js';
import { findRules } from './rankings.access.js';
import { findRuleInputs } from './rules.repo.js';
import { evaluateRules, hasRules, writeRuleOutcome } from './rules-outcome.js';

// The rankings' side of closing a phase: each student's standing (total, place, decision,
// prize) is kept at every close, so that closing again after a reopening applies the stored
// rules to the corrected totals and says who stands differently. Runs in the closing (or
// reopening) transaction, under the phase row lock.

export type CloseStandingsDeps = { outbox: MailOutbox; origin: string };

/** Totals are kept to the hundredth (numeric(10,2)); compare them the same way. */
const sameTotal = (a: number | null, b: number | null) =>
  a === null || b === null ? a === b : Math.round(a * 100) === Math.round(b * 100);

const sameStanding = (a: Standing, b: Standing) =>
  sameTotal(a.total, b.total) && a.rank === b.rank && a.status === b.status && a.prize === b.prize;

const NO_STANDING: Standing = { total: null, rank: null, status: null, prize: null };

async function standingsNow(tx: Db, phaseId: string) {
  const rules = await findRules(tx, phaseId);
  const rows = await findRuleInputs(tx, phaseId, rules.tieBreak);
  return rows.map((r) => ({
    studentId: r.studentId,
    familyName: r.familyName,
    givenName: r.givenName,
    standing: { total: r.total, rank: r.rank, status: r.status, prize: r.prize },
  }));
}

export function closeStandings({ outbox, origin }: CloseStandingsDeps) {
  return {
    /**
     * Keeps every student's standing of this close. When the phase closed before (it was
     * reopened since), first applies its stored rules again, audited, then answers the
     * students whose standing differs from the previous close and mails each (the outbox
     * sends after commit). A first close answers nobody.
     */
    async settleStandings(
      tx: Db,
      phase: { id: string; name: string },
      actorId: string,
      at: Date,
    ): Promise<StandingChange[]> {
      const previous = await repo.findCloseStandings(tx, phase.id);
      const isReclose = previous.length > 0;
      const rules = await findRules(tx, phase.id);
      if (isReclose && hasRules(rules)) {
        const { changes } = await evaluateRules(tx, phase.id, rules);
        if (changes.length > 0) {
          await writeRuleOutcome(tx, phase.id, rules, changes, actorId, 'phase.close.again');
        }
      }
      const now = await standingsNow(tx, phase.id);
      await repo.replaceCloseStandings(
        tx,
        phase.id,
        now.map((n) => ({ studentId: n.studentId, ...n.standing })),
        at,
      );
      if (!isReclose) return [];
      const before = new Map(previous.map((p) => [p.studentId, p]));
      const changes = now.flatMap((n): StandingChange[] => {
        const kept = before.get(n.studentId);
        const was: Standing = kept
          ? { total: kept.total, rank: kept.rank, status: kept.status, prize: kept.prize }
          : NO_STANDING;
        if (sameStanding(was, n.standing)) return [];
        return [
          {
            studentId: n.studentId,
            familyName: n.familyName,
            givenName: n.givenName,
            before: was,
            after: n.standing,
          },
        ];
      });
      const recipients = await repo.findRecipients(
        tx,
        changes.map((c) => c.studentId),
      );
      for (const r of recipients) {
        await outbox.enqueue(tx, {
          template: 'result-changed',
          to: r.email,
          userId: r.id,
          locale: r.uiLocale ?? r.locale,
          params: { phase: phase.name, link: `${origin}/tests` },
        });
      }
      return changes;
    },

    /**
     * Before a reopening: keeps the closed standings if this phase's close kept none (it
     * closed before standings were kept); nothing can have changed them while it was closed.
     * Answers how many are kept.
     */
    async keepClosedStandings(tx: Db, phaseId: string, closedAt: Date): Promise<number> {
      const kept = await repo.countCloseStandings(tx, phaseId);
      if (kept > 0) return kept;
      const now = await standingsNow(tx, phaseId);
      await repo.replaceCloseStandings(
        tx,
        phaseId,
        now.map((n) => ({ studentId: n.studentId, ...n.standing })),
        closedAt,
      );
      return now.length;
    },
  };
}

export type CloseStandings = ReturnType<typeof closeStandings>;
