import { describe, expect, it } from 'vitest';
import { awardRulesSchema, phaseRulesSchema } from './rankings.js';

const qualification = {
  minTotal: 14,
  placesPerCounty: 1,
  countyPlaces: [],
  extraPlaces: 43,
  unusedCountyPlacesToExtra: true,
  tiesAtCut: 'all',
  sectorsAsCounties: true,
};
const rules = { tieBreak: 'none', publication: 'none', qualification, awards: null };

describe('phase rules', () => {
  it('read qualification rules stored before the sector option as not counting sectors', () => {
    const { sectorsAsCounties: _, ...before } = qualification;
    expect(phaseRulesSchema.parse({ ...rules, qualification: before }).qualification).toEqual({
      ...qualification,
      sectorsAsCounties: false,
    });
    expect(phaseRulesSchema.parse(rules)).toEqual(rules);
  });

  it('refuse prize levels out of order, repeated, or with impossible values', () => {
    const level = (prize: string, method: string, value: number) => ({ prize, method, value });
    const awards = (levels: object[]) => ({ minTotal: null, levels, tiesAtCut: 'all' });
    const bad = [
      awards([level('second', 'count', 1), level('first', 'count', 1)]),
      awards([level('first', 'count', 1), level('first', 'count', 1)]),
      awards([level('first', 'count', 1.5)]),
      awards([level('mention', 'share', 101)]),
      awards([]),
    ];
    for (const rules of bad)
      expect(awardRulesSchema.safeParse(rules).success, JSON.stringify(rules)).toBe(false);
    expect(
      awardRulesSchema.safeParse(
        awards([level('first', 'threshold', 25.5), level('mention', 'share', 15)]),
      ).success,
    ).toBe(true);
  });

  it('refuse a county named twice', () => {
    const twice = {
      ...qualification,
      countyPlaces: [
        { county: 'Cluj', places: 2 },
        { county: 'Cluj', places: 3 },
      ],
    };
    expect(phaseRulesSchema.safeParse({ ...rules, qualification: twice }).success).toBe(false);
  });
});
