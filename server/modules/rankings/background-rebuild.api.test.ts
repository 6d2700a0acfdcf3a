import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rankingState } from '../../db/schema.js';
import { systemClock } from '../../lib/clock.js';
import { buildTestApp, type TestApp } from '../../test/app.js';
import { INLINE_REBUILD_MS } from './rankings.access.js';
import { codeOf, type Person, rankingsKit } from './rankings.fixtures.js';
import { RANKING_UPDATING_RETRY_SECONDS, rankingsService } from './rankings.service.js';

let t: TestApp;
let kit: ReturnType<typeof rankingsKit>;
let admin: Person;

beforeAll(async () => {
  t = await buildTestApp();
  kit = rankingsKit(t);
  admin = await kit.person({ type: 'admin' });
});
afterAll(async () => {
  await t.close();
});

describe('a ranking too large to bring up to date within a request', () => {
  it('is rebuilt by the background job; reads show the last one meanwhile and the download waits', async () => {
    const w = await kit.world();
    await kit.student(w, { givenName: 'Ana', familyName: 'Pop', total: 20 });
    const bogdan = await kit.student(w, { givenName: 'Bogdan', familyName: 'Popa', total: 15 });
    const get = (path: string) => kit.call('GET', `${w.phaseUrl}/${path}`, admin.headers);
    const ranks = async () =>
      ((await get('rankings')).json() as { givenName: string; rank: number }[]).map(
        (r) => `${r.givenName}:${r.rank}`,
      );
    const updating = async () =>
      ((await get('rankings/summary')).json() as { updating: boolean }).updating;

    // A small phase is ranked within the read.
    expect(await ranks()).toEqual(['Ana:1', 'Bogdan:2']);
    expect(await updating()).toBe(false);

    // Its last rebuild took longer than a request may (as one of hundreds of thousands does).
    await t.database.db
      .update(rankingState)
      .set({ rebuildMs: INLINE_REBUILD_MS + 1 })
      .where(eq(rankingState.phaseId, w.phase.id));
    const before = await kit.rebuiltAt(w.phase.id);
    // An appeal lifts Bogdan above Ana.
    await kit.setTotal(w.phase.id, bogdan.id, 25);

    expect(await ranks()).toEqual(['Ana:1', 'Bogdan:2']);
    expect(await updating()).toBe(true);
    const refused = await get('rankings/download');
    expect(refused.statusCode).toBe(503);
    expect(codeOf(refused)).toBe('RANKING_UPDATING');
    expect(refused.headers['retry-after']).toBe(String(RANKING_UPDATING_RETRY_SECONDS));
    // No read rebuilt it.
    expect(await kit.rebuiltAt(w.phase.id)).toEqual(before);

    const job = rankingsService({ db: t.database.db, clock: systemClock });
    expect(await job.rebuildWanted()).toBe(1);
    expect(await ranks()).toEqual(['Bogdan:1', 'Ana:2']);
    expect(await updating()).toBe(false);
    const file = await get('rankings/download');
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain('Bogdan');
    // Asked once, done once.
    expect(await job.rebuildWanted()).toBe(0);
    const [state] = await t.database.db
      .select()
      .from(rankingState)
      .where(eq(rankingState.phaseId, w.phase.id));
    expect(state?.wantedAt).toBeNull();
    // The job measured its own rebuild: this small phase is ranked within reads again.
    expect(state?.rebuildMs).toBeLessThan(INLINE_REBUILD_MS);
    await kit.setTotal(w.phase.id, bogdan.id, 10);
    expect(await ranks()).toEqual(['Ana:1', 'Bogdan:2']);
    expect(await updating()).toBe(false);
  });
});
