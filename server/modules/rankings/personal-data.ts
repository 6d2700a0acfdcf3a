import { eq } from 'drizzle-orm';
import { phasePrizes, phaseRanks, phases } from '../../db/schema.js';
import type { PersonalDataPart } from '../../lib/personal-data.js';
import { findCloseStandingsOf } from './close-standings.repo.js';

/**
 * A student's ranks and prizes in each phase, and their standing kept at each phase's close.
 * Kept by anonymising: they carry no name.
 */
export const rankingsPersonalData: PersonalDataPart = {
  name: 'rankings',
  async collect(db, userId) {
    const [ranks, prizes, closeStandings] = await Promise.all([
      db
        .select({
          phase: phases.name,
          phaseId: phaseRanks.phaseId,
          grade: phaseRanks.grade,
          points: phaseRanks.points,
          rank: phaseRanks.rank,
        })
        .from(phaseRanks)
        .innerJoin(phases, eq(phases.id, phaseRanks.phaseId))
        .where(eq(phaseRanks.studentId, userId)),
      db
        .select({
          phase: phases.name,
          phaseId: phasePrizes.phaseId,
          prize: phasePrizes.prize,
          awardedAt: phasePrizes.awardedAt,
        })
        .from(phasePrizes)
        .innerJoin(phases, eq(phases.id, phasePrizes.phaseId))
        .where(eq(phasePrizes.studentId, userId)),
      findCloseStandingsOf(db, userId),
    ]);
    return { ranks, prizes, closeStandings };
  },
};
