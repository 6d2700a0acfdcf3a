import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { poolSizePerWorker, workerCount } from './workers.js';

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

describe('poolSizePerWorker', () => {
  it('gives each process 6 connections, fewer when many processes would pass 80 together', () => {
    expect(poolSizePerWorker(1, {})).toBe(6);
    expect(poolSizePerWorker(13, {})).toBe(6);
    expect(poolSizePerWorker(16, {})).toBe(5);
    expect(poolSizePerWorker(64, {})).toBe(2);
  });

  it('takes DATABASE_POOL_SIZE when it is a whole number above zero', () => {
    expect(poolSizePerWorker(2, { DATABASE_POOL_SIZE: '50' })).toBe(50);
    for (const bad of ['', '0', '-1', '2.5', 'lots']) {
      expect(poolSizePerWorker(2, { DATABASE_POOL_SIZE: bad }), bad).toBe(6);
    }
  });
});
