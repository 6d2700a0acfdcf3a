import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import {
  AggregatorRegistry,
  Counter,
  collectDefaultMetrics,
  Gauge,
  Histogram,
  Registry,
} from 'prom-client';
import type { Database } from '../db/client.js';

// What an operator watches on exam day, in Prometheus' text format: requests by route and
// status with their latency, answer writes, the connection pool, the process (event-loop lag,
// memory) and whatever the modules add through `gauge` (attempts open, sweeper lag, queues).
// It is never served on the public port: `METRICS_PORT` opens a listener of its own, on
// `METRICS_HOST` (loopback unless set), answering only with `METRICS_TOKEN` when one is set.

/** Seconds: exam day's writes take milliseconds, exports seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** The route that saves a student's answer (`PUT /api/v1/test-player/mytests/:testId`). */
const ANSWER_WRITE = { method: 'PUT', url: '/api/v1/test-player/mytests/:testId' };

export type Metrics = ReturnType<typeof createMetrics>;

/** One process's registry with the HTTP, pool and process metrics registered. */
export function createMetrics(database: Database) {
  const registry = new Registry();
  collectDefaultMetrics({
    register: registry,
    prefix: 'podium_',
    eventLoopMonitoringPrecision: 20,
  });

  const requests = new Counter({
    name: 'podium_http_requests_total',
    help: 'HTTP requests answered, by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'podium_http_request_duration_seconds',
    help: 'Time from a request’s arrival to its answer, by route template, method and status class',
    labelNames: ['route', 'method', 'status_class'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const answerWrites = new Counter({
    name: 'podium_answer_writes_total',
    help: 'Answer writes of the test player, by outcome (acknowledged, refused, failed)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const answerLatency = new Histogram({
    name: 'podium_answer_write_duration_seconds',
    help: 'Time to acknowledge an answer write (2xx only)',
    buckets: [0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const pool = database.pool;
  if (pool) {
    new Gauge({
      name: 'podium_db_pool_connections',
      help: 'Database connections of this process, by state (total, idle)',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
      },
    });
    new Gauge({
      name: 'podium_db_pool_waiting',
      help: 'Queries of this process waiting for a free database connection',
      registers: [registry],
      collect() {
        this.set(pool.waitingCount);
      },
    });
  }

  return {
    registry,
    /**
     * A gauge read from the database at each scrape (the same in every process, so a cluster's
     * scrape keeps one process's value instead of adding them up). `read` returns the value
     * of each label set; a failed read leaves the gauge out of that scrape.
     */
    databaseGauge<L extends string>(options: {
      name: string;
      help: string;
      labelNames?: readonly L[];
      read: () => Promise<{ labels?: Partial<Record<L, string>>; value: number }[]>;
    }) {
      new Gauge({
        name: options.name,
        help: options.help,
        labelNames: options.labelNames ?? [],
        aggregator: 'max',
        registers: [registry],
        async collect() {
          this.reset();
          const rows = await options.read().catch(() => []);
          for (const row of rows) {
            if (row.labels) this.set(row.labels, row.value);
            else this.set(row.value);
          }
        },
      });
    },
    /** Counts one answered request. */
    observe(route: string, method: string, status: number, seconds: number) {
      requests.inc({ route, method, status: String(status) });
      latency.observe({ route, method, status_class: `${Math.floor(status / 100)}xx` }, seconds);
      if (method === ANSWER_WRITE.method && route === ANSWER_WRITE.url) {
        const outcome = status < 400 ? 'acknowledged' : status < 500 ? 'refused' : 'failed';
        answerWrites.inc({ outcome });
        if (status < 400) answerLatency.observe(seconds);
      }
    },
  };
}

/** Counts every answered request of `app` by its route template (an unknown path is `other`). */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics) {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'other';
    metrics.observe(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

export type MetricsListener = { port: number; close(): Promise<void> };

/**
 * Serves `GET /metrics` on its own port. `registry` is this process's, or, in the first process
 * of several workers, an AggregatorRegistry that asks every worker for theirs. With a token,
 * a scrape without `Authorization: Bearer <token>` answers 401.
 */
export async function listenMetrics(options: {
  port: number;
  host: string;
  token?: string | undefined;
  registry: Registry | AggregatorRegistry<never>;
  aggregate?: boolean;
}): Promise<MetricsListener> {
  const { registry, token } = options;
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
        res.writeHead(404).end();
        return;
      }
      if (token && req.headers.authorization !== `Bearer ${token}`) {
        res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
        return;
      }
      try {
        const text =
          options.aggregate && registry instanceof AggregatorRegistry
            ? await (await registry.clusterMetrics()).toString()
            : await registry.metrics();
        res.writeHead(200, { 'content-type': registry.contentType }).end(text);
      } catch {
        res.writeHead(503).end();
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first process of several: a registry that gathers every worker's metrics at a scrape. */
export function clusterRegistry(): AggregatorRegistry<never> {
  return new AggregatorRegistry();
}

/** A worker of several answers the first process's scrapes with its own registry. */
export function answerClusterScrapes(metrics: Metrics) {
  AggregatorRegistry.setRegistries([metrics.registry]);
  // Constructing one is what makes a worker listen for the first process's requests.
  new AggregatorRegistry();
}
