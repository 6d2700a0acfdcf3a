import { describe, expect, it } from 'vitest';
import { emptyTest, type TestFormValues, testForm } from './test-form.js';

const phase = { startDate: '2026-11-23T07:00:00.000Z', endDate: '2026-11-23T15:00:00.000Z' };
const filled = (over: Partial<TestFormValues> = {}): TestFormValues => ({
  ...emptyTest({ subject: 'Matematică' }, phase),
  name: 'Test etapa pe școală',
  grades: [5, 6],
  easyCount: '2',
  mediumCount: '1',
  hardCount: '0',
  ...over,
});

/** Field → first code, as the form shows them. */
const errorsOf = (values: TestFormValues) => {
  const result = testForm.safeParse(values);
  if (result.success) return {};
  const out: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path.at(-1));
    out[field] ??= issue.message;
  }
  return out;
};

describe('test create form', () => {
  it("starts on the competition's subject, the phase's window, 120 minutes and 100 points", () => {
    const values = emptyTest({ subject: 'Informatică' }, phase);
    expect(values.subject).toBe('Informatică');
    expect(new Date(values.startDate).toISOString()).toBe(phase.startDate);
    expect(new Date(values.endDate).toISOString()).toBe(phase.endDate);
    expect([values.duration, values.totalScore]).toEqual(['120', '100']);
    expect(values.weightByDifficulty).toBe(false);
  });

  it('starts inside a phase that does not begin on a whole minute', () => {
    const odd = { startDate: '2026-11-23T07:00:37.123Z', endDate: '2026-11-23T15:00:59.000Z' };
    const values = emptyTest({ subject: 'Matematică' }, odd);
    expect(new Date(values.startDate).toISOString()).toBe('2026-11-23T07:01:00.000Z');
    expect(new Date(values.endDate).toISOString()).toBe('2026-11-23T15:00:00.000Z');
  });

  it("turns the boxes' text into the route's body", () => {
    const body = testForm.parse(filled({ totalScore: '7,5', duration: ' 90 ' }));
    expect(body).toEqual({
      name: 'Test etapa pe școală',
      grades: [5, 6],
      subject: 'Matematică',
      startDate: phase.startDate,
      endDate: phase.endDate,
      duration: 90,
      totalScore: 7.5,
      easyCount: 2,
      mediumCount: 1,
      hardCount: 0,
      weightByDifficulty: false,
    });
  });

  it('shares the total equally unless weighted by difficulty, which needs more of it', () => {
    const tiny = filled({ totalScore: '0,03', easyCount: '1', mediumCount: '0', hardCount: '1' });
    expect(testForm.parse(tiny).weightByDifficulty).toBe(false);
    // Equal shares: two questions need 0.02; by difficulty 1 + 3 hundredths, more than 0.03.
    expect(errorsOf(tiny)).toEqual({});
    expect(errorsOf({ ...tiny, weightByDifficulty: true })).toEqual({ totalScore: 'invalid' });
    expect(testForm.parse(filled({ weightByDifficulty: true })).weightByDifficulty).toBe(true);
  });

  it('marks empty and wrong fields with the codes the form translates', () => {
    expect(errorsOf(filled({ name: '', grades: [], duration: '', easyCount: 'abc' }))).toEqual({
      name: 'required',
      grades: 'required',
      duration: 'required',
      easyCount: 'not_number',
    });
    expect(errorsOf(filled({ duration: '0' }))).toEqual({ duration: 'not_positive' });
    expect(errorsOf(filled({ startDate: '' }))).toEqual({ startDate: 'required' });
  });

  it('refuses an end before the start, and a test without questions', () => {
    expect(errorsOf(filled({ endDate: filled().startDate }))).toEqual({ endDate: 'invalid_date' });
    expect(errorsOf(filled({ easyCount: '0', mediumCount: '0', hardCount: '0' }))).toEqual({
      easyCount: 'not_positive',
      mediumCount: 'not_positive',
      hardCount: 'not_positive',
    });
  });
});
