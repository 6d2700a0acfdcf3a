import { describe, expect, it } from 'vitest';
import { finishedTextKey } from './result.js';

describe('the end screen', () => {
  it('says how the attempt ended: time up, phase closed, or the student', () => {
    expect(finishedTextKey('sweeper', 'final')).toBe('player.finished.byTime');
    expect(finishedTextKey('closed', 'awaiting_marking')).toBe('player.finished.byClosing');
    expect(finishedTextKey('student', 'awaiting_marking')).toBe('player.finished.textAwaiting');
    expect(finishedTextKey('student', 'final')).toBe('player.finished.text');
    expect(finishedTextKey(null, null)).toBe('player.finished.text');
  });
});
