import { describe, expect, it } from 'vitest';
import { RULE_PRESET_IDS, rulePresetSchema } from '../../../shared/schemas/rankings.js';
import { RULE_PRESETS } from './rule-presets.js';

describe('the rule presets', () => {
  it('are valid rules, each under its own id, named in both languages', () => {
    for (const id of RULE_PRESET_IDS) {
      const preset = RULE_PRESETS[id];
      expect(rulePresetSchema.parse(preset)).toEqual(preset);
      expect(preset.id).toBe(id);
      expect(preset.name.ro && preset.name.en && preset.description.ro).toBeTruthy();
    }
  });

  it("give Bucharest's six sectors a place each, as the county phase's regulation does", () => {
    const q = RULE_PRESETS.county_to_national.rules.qualification;
    expect(q).toMatchObject({ placesPerCounty: 1, countyPlaces: [], sectorsAsCounties: true });
  });
});
