import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenMetrics, type MetricsListener } from '../../lib/metrics.js';
import { playerApp } from '../player/player.fixtures.js';

// The operator's scrape: what exam day looks like in Prometheus' text format, on a port of its
// own behind a token, never on the public port.

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(text: string, name: string, labels = ''): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('metrics', () => {
  let ctx: Awaited<ReturnType<typeof playerApp>>;
  let listener: MetricsListener;
  const TOKEN = 'scrape-token-for-tests';
  const scrape = async (token: string | null = TOKEN) =>
    fetch(`http://127.0.0.1:${listener.port}/metrics`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });

  beforeAll(async () => {
    ctx = await playerApp(undefined, { METRICS_PORT: '0', METRICS_TOKEN: TOKEN });
    const metrics = ctx.t.app.metrics;
    if (!metrics) throw new Error('metrics are on with METRICS_PORT');
    listener = await listenMetrics({
      ...ctx.t.config.metrics,
      port: 0,
      registry: metrics.registry,
    });
  });
  afterAll(async () => {
    await listener?.close();
    await ctx?.t.close();
  });

  it('is not served on the public port, and not without the token', async () => {
    const pub = await ctx.t.app.inject({ method: 'GET', url: '/metrics' });
    expect(pub.statusCode).toBe(404);
    expect((await scrape(null)).status).toBe(401);
    expect((await scrape('wrong')).status).toBe(401);
    expect((await scrape()).status).toBe(200);
  });

  it('counts requests by route and status, answer writes, attempts open and the sweeper lag', async () => {
    const { kit, clock } = ctx;
    const w = await kit.world();
    expect((await kit.start(w.alice, w.test.id)).statusCode).toBe(200);
    const saved = await kit.answer(w.alice, w.test.id, {
      itemId: w.q.single,
      submittedAnswer: [1],
      seq: 1,
    });
    expect(saved.statusCode).toBe(200);
    const refused = await kit.answer(w.bob, w.test.id, {
      itemId: w.q.single,
      submittedAnswer: [1],
      seq: 1,
    });
    expect(refused.statusCode).toBe(409);

    let text = await (await scrape()).text();
    const put = 'route="/api/v1/test-player/mytests/:testId",method="PUT"';
    expect(sample(text, 'podium_http_requests_total', `${put},status="200"`)).toBe(1);
    expect(sample(text, 'podium_http_requests_total', `${put},status="409"`)).toBe(1);
    expect(sample(text, 'podium_answer_writes_total', 'outcome="acknowledged"')).toBe(1);
    expect(sample(text, 'podium_answer_writes_total', 'outcome="refused"')).toBe(1);
    expect(sample(text, 'podium_answer_write_duration_seconds_count')).toBe(1);
    expect(
      sample(
        text,
        'podium_http_request_duration_seconds_count',
        `route="/api/v1/test-player/mytests/:testId",method="PUT",status_class="2xx"`,
      ),
    ).toBe(1);
    expect(sample(text, 'podium_attempts_open')).toBe(1);
    expect(sample(text, 'podium_sweeper_lag_seconds')).toBe(0);
    expect(sample(text, 'podium_mail_outbox', 'state="failed"')).toBe(0);
    expect(sample(text, 'podium_jobs_waiting', 'queue="diploma-jobs"')).toBe(0);
    expect(sample(text, 'podium_nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    if (ctx.t.database.pool) {
      expect(sample(text, 'podium_db_pool_connections', 'state="total"')).toBeGreaterThan(0);
      expect(sample(text, 'podium_db_pool_waiting')).toBe(0);
    }

    // The attempt's deadline (60 minutes from the start) passes and nobody ends it: the
    // sweeper (not run in tests) is 15 minutes late, less the grace for answers in flight.
    clock.advance(75 * 60);
    text = await (await scrape()).text();
    expect(sample(text, 'podium_sweeper_lag_seconds')).toBeCloseTo(15 * 60 - 10, 0);
  });
});
