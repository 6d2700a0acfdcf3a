import type { RulePreset, RulePresetId } from '../../../shared/schemas/rankings.js';

/**
 * Two rule sets of the Romanian mathematics olympiad (shared/GLOSSARY.md), to load and adapt,
 * served by `GET …/rules/presets` so the rules page and any API client start from the same:
 * - `county_to_national`: a county phase. At least 14 points (of 28) to qualify; one place per
 *   county and grade, and one per grade for each of Bucharest's six sectors, which count as
 *   counties (47 units); 43 extra places per grade down the national ranking, plus the county
 *   places nobody took; ties at a cut all go on. Prizes by the county's score bands: Premiul I
 *   25.5–28, II 22.5–25, III 19.5–22, Mențiune 14–19.
 * - `national_prizes`: a final phase. No qualification; per grade one Premiul I, one II, one
 *   III and mentions for 15% of the grade's students (rounded up), in ranking order, equal
 *   scores getting the same distinction.
 * Both keep ties shared: the regulations quoted break none by the problems' marks.
 *
 * Fixed on purpose: they are the published regulations, so no route edits them; a phase takes a
 * copy into its own rules (`PUT …/rules`), which the phase's organisers may then change.
 */
export const RULE_PRESETS: Record<RulePresetId, RulePreset> = {
  county_to_national: {
    id: 'county_to_national',
    name: {
      ro: 'Etapa județeană, cu calificare la etapa națională',
      en: 'County phase, qualifying to the national one',
    },
    description: {
      ro:
        'Minimum 14 puncte; un loc pe clasă pentru fiecare județ și pentru fiecare dintre cele ' +
        'șase sectoare ale Bucureștiului; 43 de locuri suplimentare pe clasă plus locurile ' +
        'județene neocupate; toți cei la egalitate la limită trec. Premii după punctaj: I de la ' +
        '25,5, II de la 22,5, III de la 19,5, mențiune de la 14.',
      en:
        "At least 14 points; one place per grade for each county and for each of Bucharest's " +
        'six sectors; 43 extra places per grade plus the county places nobody took; everyone ' +
        'tied at a cut goes on. Prizes by score: I from 25.5, II from 22.5, III from 19.5, ' +
        'mention from 14.',
    },
    rules: {
      tieBreak: 'none',
      publication: 'none',
      qualification: {
        minTotal: 14,
        placesPerCounty: 1,
        countyPlaces: [],
        extraPlaces: 43,
        unusedCountyPlacesToExtra: true,
        tiesAtCut: 'all',
        sectorsAsCounties: true,
      },
      awards: {
        minTotal: 14,
        levels: [
          { prize: 'first', method: 'threshold', value: 25.5 },
          { prize: 'second', method: 'threshold', value: 22.5 },
          { prize: 'third', method: 'threshold', value: 19.5 },
          { prize: 'mention', method: 'threshold', value: 14 },
        ],
        tiesAtCut: 'all',
      },
    },
  },
  national_prizes: {
    id: 'national_prizes',
    name: { ro: 'Etapa națională, cu premii', en: 'National phase, awarding prizes' },
    description: {
      ro:
        'Nu se califică nimeni mai departe. Pe fiecare clasă un premiu I, un premiu II, un ' +
        'premiu III și mențiuni pentru 15% dintre elevi (rotunjit în sus); punctajele egale ' +
        'primesc același premiu.',
      en:
        'Nobody goes on. Per grade one first, one second and one third prize, and mentions for ' +
        '15% of the students (rounded up); equal scores get the same prize.',
    },
    rules: {
      tieBreak: 'none',
      publication: 'none',
      qualification: null,
      awards: {
        minTotal: null,
        levels: [
          { prize: 'first', method: 'count', value: 1 },
          { prize: 'second', method: 'count', value: 1 },
          { prize: 'third', method: 'count', value: 1 },
          { prize: 'mention', method: 'share', value: 15 },
        ],
        tiesAtCut: 'all',
      },
    },
  },
};
