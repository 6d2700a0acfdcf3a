import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { workerCount } from './workers.js';

describe('workerCount', () => {
  const pg = 'postgres://podium@db.example.ro/podium';

  it('keeps the embedded database in one process, whatever WORKERS says', () => {
    expect(workerCount({})).toBe(1);
    expect(workerCount({ WORKERS: '4' })).toBe(1);
  });

  it('runs one process per core on PostgreSQL unless WORKERS says otherwise', () => {
    expect(workerCount({ DATABASE_URL: pg })).toBe(availableParallelism());
    expect(workerCount({ DATABASE_URL: pg, WORKERS: '1' })).toBe(1);
    expect(workerCount({ DATABASE_URL: pg, WORKERS: '3' })).toBe(3);
    expect(workerCount({ DATABASE_URL: pg, WORKERS: '1000' })).toBe(64);
  });

  it('takes a WORKERS that is not a whole number above zero as unset', () => {
    for (const bad of ['', '0', '-2', '1.5', 'many']) {
      expect(workerCount({ DATABASE_URL: pg, WORKERS: bad }), bad).toBe(availableParallelism());
    }
  });
});
