import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PHASE_RULES,
  RULE_PRESET_IDS,
  RULE_PRESETS,
} from '../../../../shared/schemas/rankings.js';
import { draftToRules, readNumber, rulesToDraft } from './rules-form.js';

describe('the rules form', () => {
  it('gives back every preset and the defaults unchanged', () => {
    for (const id of RULE_PRESET_IDS) {
      expect(draftToRules(rulesToDraft(RULE_PRESETS[id]))).toEqual({
        rules: RULE_PRESETS[id],
        errors: null,
      });
    }
    expect(draftToRules(rulesToDraft(DEFAULT_PHASE_RULES)).rules).toEqual(DEFAULT_PHASE_RULES);
  });

  it('keeps a switched-off section to restore it, starting from the presets', () => {
    const draft = rulesToDraft(DEFAULT_PHASE_RULES);
    expect(draft.qualificationOn).toBe(false);
    expect(draft.placesPerCounty).toBe('1');
    const on = draftToRules({ ...draft, qualificationOn: true });
    expect(on.rules?.qualification).toEqual(RULE_PRESETS.county_to_national.qualification);
  });

  it('reads numbers as people type them', () => {
    expect(readNumber('25,5')).toBe(25.5);
    expect(readNumber(' 14 ')).toBe(14);
    expect(readNumber('')).toBe('required');
    expect(readNumber('-1')).toBe('not_number');
    expect(readNumber('1e3')).toBe('not_number');
    expect(readNumber('paisprezece')).toBe('not_number');
  });

  it('says which field is wrong, and sends nothing then', () => {
    const draft = rulesToDraft(RULE_PRESETS.county_to_national);
    const bad = draftToRules({
      ...draft,
      placesPerCounty: '1,5',
      extraPlaces: '',
      qMinTotal: 'x',
      countyPlaces: [
        { county: 'Cluj', places: '2' },
        { county: 'Cluj', places: '3' },
        { county: '', places: '1' },
      ],
      levels: draft.levels.map((l, i) => (i === 0 ? { ...l, method: 'share', value: '150' } : l)),
    });
    expect(bad).toEqual({
      rules: null,
      errors: {
        placesPerCounty: 'invalid',
        extraPlaces: 'required',
        qMinTotal: 'not_number',
        'countyPlaces.1.county': 'invalid',
        'countyPlaces.2.county': 'required',
        'levels.0.value': 'invalid',
      },
    });
  });

  it('needs a prize level when prizes are on, and a whole count', () => {
    const draft = rulesToDraft(RULE_PRESETS.national_prizes);
    expect(
      draftToRules({ ...draft, levels: draft.levels.map((l) => ({ ...l, on: false })) }).errors,
    ).toEqual({ levels: 'required' });
    expect(
      draftToRules({
        ...draft,
        levels: draft.levels.map((l, i) => (i === 0 ? { ...l, value: '1,5' } : l)),
      }).errors,
    ).toEqual({ 'levels.0.value': 'invalid' });
  });

  it('leaves out the minimum when it is blank', () => {
    const draft = rulesToDraft(RULE_PRESETS.county_to_national);
    const rules = draftToRules({ ...draft, qMinTotal: '', aMinTotal: ' ' }).rules;
    expect(rules?.qualification?.minTotal).toBeNull();
    expect(rules?.awards?.minTotal).toBeNull();
  });
});
