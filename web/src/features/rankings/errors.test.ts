import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.js';
import ro from '../../i18n/ro.json';
import { refusalText } from './errors.js';

let t: TFunction;

beforeAll(async () => {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: 'ro',
    resources: { ro: { translation: ro } },
    interpolation: { escapeValue: false },
  });
  t = i18n.t;
});

describe('refusals of the rules screen, in words', () => {
  it('says the outcome moved since the dry run', () => {
    expect(refusalText(new ApiError(409, 'RULES_OUTCOME_CHANGED', 'x'), t)).toContain(
      'Rezultatele s-au schimbat de la simulare',
    );
  });

  it('counts what keeps the results incomplete, each in its plural', () => {
    const text = refusalText(
      new ApiError(409, 'RESULTS_INCOMPLETE', 'x', {
        awaitingItems: 3,
        studentsAwaiting: 2,
        runningAttempts: 1,
      }),
      t,
    );
    expect(text).toBe(
      'Rezultatele nu sunt încă complete, așa că nu s-a scris nimic. 3 răspunsuri așteaptă încă să fie corectate. Un elev încă lucrează.',
    );
  });

  it('names a closed phase, missing rules and someone still admitted in a last phase', () => {
    expect(refusalText(new ApiError(409, 'PHASE_CLOSED', 'x'), t)).toContain('Etapa este închisă');
    expect(
      refusalText(new ApiError(400, 'CLIENT_ERROR', 'x', { rules: ['required'] }), t),
    ).toContain('Etapa nu are reguli salvate');
    expect(refusalText(new ApiError(409, 'EDITION_PHASE_NOT_CREATED', 'x'), t)).toContain(
      'nu există o etapă următoare',
    );
  });

  it('falls back to the code, then to the general message', () => {
    expect(refusalText(new ApiError(403, 'OPERATION_NOT_PERMITTED', 'x'), t)).toBe(
      ro.errors.OPERATION_NOT_PERMITTED,
    );
    expect(refusalText(new Error('offline'), t)).toBe(ro.errors.GENERAL_ERROR);
  });
});
