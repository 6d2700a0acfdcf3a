import { describe, expect, it } from 'vitest';
import { awardRulesSchema, phaseRulesSchema, RULE_PRESETS } from './rankings.js';

describe('phase rules', () => {
  it('accept both presets as they are', () => {
    for (const preset of Object.values(RULE_PRESETS)) {
      expect(phaseRulesSchema.parse(preset)).toEqual(preset);
    }
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
    const qualification = {
      ...RULE_PRESETS.county_to_national.qualification,
      countyPlaces: [
        { county: 'Cluj', places: 2 },
        { county: 'Cluj', places: 3 },
      ],
    };
    expect(
      phaseRulesSchema.safeParse({ ...RULE_PRESETS.county_to_national, qualification }).success,
    ).toBe(false);
  });
});
