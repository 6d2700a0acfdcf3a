import { existsSync } from 'node:fs';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { registerScratchSweep, SCRATCH_KEEP_HOURS } from './scratch-sweep.js';
import { createStorage } from './storage.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'podium-sweep-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

it('removes scratch files a stopped process left, as the server starts', async () => {
  const storage = createStorage(loadConfig({ DATA_DIR: dataDir }));
  const now = new Date('2026-06-10T09:00:00Z');
  const left = await storage.scratchPath();
  const recent = await storage.scratchPath();
  await writeFile(left, 'half a ZIP');
  await writeFile(recent, 'a ZIP being drawn');
  const justOlder = new Date(now.getTime() - SCRATCH_KEEP_HOURS * 3_600_000 - 60_000);
  const justYounger = new Date(now.getTime() - SCRATCH_KEEP_HOURS * 3_600_000 + 60_000);
  await utimes(left, justOlder, justOlder);
  await utimes(recent, justYounger, justYounger);

  const app = Fastify({ logger: false });
  registerScratchSweep(app, storage, { now: () => now });
  await app.ready();
  await expect.poll(() => existsSync(left)).toBe(false);
  expect(existsSync(recent)).toBe(true);
  await app.close();
});
