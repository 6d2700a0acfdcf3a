import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PHASE_RULES,
  type PhaseRules,
  type QualificationRules,
} from '../../../../shared/schemas/rankings.js';
import { draftToRules, readNumber, rulesToDraft } from './rules-form.js';

// Rule sets like the olympiad's presets (the server serves those).
const countyToNational: PhaseRules = {
  tieBreak: 'items_from_last',
  publication: 'none',
  qualification: {
    minTotal: 14,
    placesPerCounty: 1,
    countyPlaces: [{ county: 'Olt', places: 2 }],
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
};
const nationalPrizes: PhaseRules = {
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
};

describe('the rules form', () => {
  it('gives back rule sets, the sector rule and the tie-break among them, unchanged', () => {
    for (const rules of [countyToNational, nationalPrizes]) {
      expect(draftToRules(rulesToDraft(rules, 'en'))).toEqual({ rules, errors: null });
    }
    const off = { ...rulesToDraft(countyToNational, 'en'), sectorsAsCounties: false };
    expect(draftToRules(off).rules?.qualification?.sectorsAsCounties).toBe(false);
    expect(draftToRules(rulesToDraft(DEFAULT_PHASE_RULES, 'en')).rules).toEqual(
      DEFAULT_PHASE_RULES,
    );
  });

  it('shows a decimal with a comma in Romanian and reads it back', () => {
    const halves = {
      ...countyToNational,
      qualification: { ...(countyToNational.qualification as QualificationRules), minTotal: 25.5 },
    };
    const draft = rulesToDraft(halves, 'ro');
    expect(draft.qMinTotal).toBe('25,5');
    expect(rulesToDraft(halves, 'en').qMinTotal).toBe('25.5');
    expect(draftToRules(draft)).toEqual({ rules: halves, errors: null });
  });

  it('starts a switched-on section blank: one place per county, no prize level chosen', () => {
    const draft = rulesToDraft(DEFAULT_PHASE_RULES, 'en');
    expect(draft.qualificationOn).toBe(false);
    expect(draft.placesPerCounty).toBe('1');
    const on = draftToRules({ ...draft, qualificationOn: true });
    expect(on.rules?.qualification).toEqual({
      minTotal: null,
      placesPerCounty: 1,
      countyPlaces: [],
      extraPlaces: 0,
      unusedCountyPlacesToExtra: false,
      tiesAtCut: 'all',
      sectorsAsCounties: false,
    });
    expect(draftToRules({ ...draft, awardsOn: true }).errors).toEqual({ levels: 'required' });
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
    const draft = rulesToDraft(countyToNational, 'en');
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
    const draft = rulesToDraft(nationalPrizes, 'en');
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
    const draft = rulesToDraft(countyToNational, 'en');
    const rules = draftToRules({ ...draft, qMinTotal: '', aMinTotal: ' ' }).rules;
    expect(rules?.qualification?.minTotal).toBeNull();
    expect(rules?.awards?.minTotal).toBeNull();
  });
});
