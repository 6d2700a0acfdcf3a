import { describe, expect, it } from 'vitest';
import type { Phase } from '../../../../shared/schemas/exams.js';
import { fromLocalInput } from './format.js';
import { type PhaseFormInput, phaseForm, phaseFormValues } from './phase-form.js';

const filled = (over: Partial<PhaseFormInput> = {}): PhaseFormInput => ({
  ...phaseFormValues(),
  name: 'Etapa județeană',
  startDate: '2026-11-23T09:00',
  endDate: '2026-11-23T13:00',
  ...over,
});

/** Field → first code, as the form shows them. */
const errorsOf = (values: PhaseFormInput) => {
  const result = phaseForm.safeParse(values);
  if (result.success) return {};
  const out: Record<string, string> = {};
  for (const issue of result.error.issues) out[String(issue.path.at(-1))] ??= issue.message;
  return out;
};

describe('phase form', () => {
  it('sends no appeal window when both ends are left empty', () => {
    const body = phaseForm.parse(filled());
    expect(body).toMatchObject({ appealStartDate: null, appealEndDate: null });
    expect(body.startDate).toBe(fromLocalInput('2026-11-23T09:00'));
  });

  it('sends the appeal window as instants', () => {
    const body = phaseForm.parse(
      filled({ appealStartDate: '2026-11-25T08:00', appealEndDate: '2026-11-26T20:00' }),
    );
    expect(body.appealStartDate).toBe(fromLocalInput('2026-11-25T08:00'));
    expect(body.appealEndDate).toBe(fromLocalInput('2026-11-26T20:00'));
  });

  it('wants both ends of the window, the end after the start', () => {
    expect(errorsOf(filled({ appealStartDate: '2026-11-25T08:00' }))).toEqual({
      appealEndDate: 'required',
    });
    expect(errorsOf(filled({ appealEndDate: '2026-11-25T08:00' }))).toEqual({
      appealStartDate: 'required',
    });
    expect(
      errorsOf(filled({ appealStartDate: '2026-11-25T08:00', appealEndDate: '2026-11-25T08:00' })),
    ).toEqual({ appealStartDate: 'invalid_date', appealEndDate: 'invalid_date' });
    expect(errorsOf(filled({ appealStartDate: '2026-13-45T99:99' }))).toMatchObject({
      appealStartDate: 'invalid_date',
    });
  });

  it("starts from the phase's stored window", () => {
    const phase = {
      name: 'Etapa pe școală',
      type: 'hybrid',
      startDate: '2026-11-23T07:00:00.000Z',
      endDate: '2026-11-23T11:00:00.000Z',
      appealStartDate: '2026-11-25T06:00:00.000Z',
      appealEndDate: null,
    } as Phase;
    const values = phaseFormValues(phase);
    expect(values.type).toBe('hybrid');
    expect(fromLocalInput(values.appealStartDate)).toBe(phase.appealStartDate);
    expect(values.appealEndDate).toBe('');
  });

  it('starts a new phase on the server defaults and sends the marking settings as numbers', () => {
    expect(phaseFormValues(undefined, 'ro')).toMatchObject({
      mediationThreshold: '10',
      markStep: '0,5',
      appealMinPoints: '0',
    });
    const body = phaseForm.parse(
      filled({ mediationThreshold: '12,5', markStep: '0,25', appealMinPoints: '1' }),
    );
    expect(body).toMatchObject({ mediationThreshold: 0.125, markStep: 0.25, appealMinPoints: 1 });
  });

  it("shows a phase's settings in the interface language and refuses what the route refuses", () => {
    const phase = {
      ...phaseFormValues(),
      mediationThreshold: 0.2,
      markStep: 0.25,
      appealMinPoints: 1.5,
    } as unknown as Phase;
    expect(phaseFormValues(phase, 'en')).toMatchObject({
      mediationThreshold: '20',
      markStep: '0.25',
      appealMinPoints: '1.5',
    });
    expect(
      errorsOf(filled({ mediationThreshold: '150', markStep: 'abc', appealMinPoints: '' })),
    ).toEqual({
      mediationThreshold: 'invalid',
      markStep: 'not_number',
      appealMinPoints: 'required',
    });
    expect(errorsOf(filled({ markStep: '0' }))).toEqual({ markStep: 'invalid' });
  });
});
