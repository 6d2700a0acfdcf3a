import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCode } from '../../test/app.js';
import { API, DURING, type Person, type PlayerKit, playerApp } from './player.fixtures.js';

/**
 * The player's event stream: staff give extra time or reopen an attempt, and the student's
 * open player hears of it at once (through PostgreSQL NOTIFY when several processes serve,
 * in the process on PGlite). Runs on a listening server: an event stream never ends, which
 * `inject` would wait for.
 */

let ctx: Awaited<ReturnType<typeof playerApp>>;
let kit: PlayerKit;
let w: Awaited<ReturnType<PlayerKit['world']>>;
let origin: string;

beforeAll(async () => {
  ctx = await playerApp(DURING);
  kit = ctx.kit;
  w = await kit.world();
  origin = await ctx.t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => ctx.t.close());

/** A new grade-5 student registered for the phase. */
const student = () => kit.student(w);

type Event = { event: string; data: Record<string, unknown> };

/** Opens a student's event stream and reads it event by event. */
async function openEvents(who: Person, testId: string) {
  const abort = new AbortController();
  const res = await fetch(`${origin}${API}/mytests/${testId}/events`, {
    headers: who.headers,
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  async function next(): Promise<Event> {
    for (;;) {
      const end = buffered.indexOf('\n\n');
      if (end >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data) return { event, data: JSON.parse(data) };
        continue;
      }
      const chunk = await reader.read();
      if (chunk.done) throw new Error('the stream ended');
      buffered += decoder.decode(chunk.value, { stream: true });
    }
  }
  return { next, close: () => abort.abort() };
}

describe('Event stream', () => {
  it('pushes extra time and a reopen to the student’s open player, and nobody else’s', async () => {
    const s = await student();
    const other = await student();
    await kit.start(s, w.test.id);
    await kit.start(other, w.test.id);
    const events = await openEvents(s, w.test.id);
    expect(await events.next()).toMatchObject({
      event: 'attempt',
      data: { state: 'in_progress', deadline: '2026-11-23T10:30:00.000Z' },
    });

    // Another student's extra time is not this student's news.
    const elsewhere = { minutes: 5, reason: 'Pană de curent' };
    expect((await kit.extraTime(w.staff, w.test.id, other.id, elsewhere)).statusCode).toBe(200);
    const mine = { minutes: 10, reason: 'Calculatorul s-a blocat' };
    expect((await kit.extraTime(w.staff, w.test.id, s.id, mine)).statusCode).toBe(200);
    expect(await events.next()).toEqual({
      event: 'deadline',
      data: { deadline: '2026-11-23T10:40:00.000Z' },
    });

    expect((await kit.finish(s, w.test.id)).statusCode).toBe(200);
    const reopened = await kit.reopen(w.staff, w.test.id, s.id, {
      remainingSeconds: 600,
      reason: 'Incident dovedit',
    });
    expect(reopened.statusCode).toBe(200);
    expect(await events.next()).toEqual({
      event: 'deadline',
      data: { deadline: '2026-11-23T09:40:00.000Z' },
    });
    events.close();
  });

  it('answers the errors of GET …/state: no session, not a student, not their test', async () => {
    const url = `/mytests/${w.test.id}/events`;
    expect((await kit.call('GET', url, {})).statusCode).toBe(401);
    expect(errorCode(await kit.call('GET', url, w.staff.headers))).toBe('OPERATION_NOT_PERMITTED');
    const dan = await kit.call('GET', url, w.dan.headers);
    expect(dan.statusCode).toBe(404);
    const bad = await kit.call('GET', '/mytests/not-a-test/events', w.alice.headers);
    expect(bad.statusCode).toBe(400);
  });
});
