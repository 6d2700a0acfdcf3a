import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyServerOptions, LightMyRequestResponse } from 'fastify';
import { type AppDeps, buildApp } from '../app.js';
import { type Config, loadConfig } from '../config.js';
import { makeUser, type UserSeed } from '../db/factories.js';
import type { Clock } from '../lib/clock.js';
import { createStorage } from '../lib/files/storage.js';
import { createMailer, type Mailer, readOutbox } from '../lib/mail/mailer.js';
import { createTestDatabase, type TestDatabase } from './db.js';
import { checkResponses, type ResponseCheckOptions } from './response-check.js';

export type TestApp = {
  app: FastifyInstance;
  database: TestDatabase;
  config: Config;
  dataDir: string;
  /** Sends the mail that is due now (the server's worker does it on a timer); how many rows. */
  deliverMail(): Promise<number>;
  /** The newest mail sent to an address (after sending what is due), or undefined. */
  lastMail(
    to: string,
  ): Promise<{ subject: string; text: string; link: string | undefined } | undefined>;
  /** Creates a user (active, registered, confirmed unless told otherwise) with a password. */
  createUser(seed?: UserSeed): Promise<Awaited<ReturnType<typeof makeUser>> & { password: string }>;
  /** Signs in through the API and returns the bearer headers. */
  login(email: string, password: string): Promise<{ authorization: string; userid: string }>;
  close(): Promise<void>;
};

export type TestAppOptions = {
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
  webDist?: string;
  /** The server's logger (default: none), e.g. one writing to a stream the test reads. */
  logger?: FastifyServerOptions['logger'];
  /** Runs on the built app before it is made ready (a test may add a route of its own). */
  prepare?(app: FastifyInstance, database: TestDatabase): void;
  /** The mail transport; default: the one the configuration chooses (the outbox directory). */
  mailer?: Mailer;
  /** What prints test papers; default the system Chromium. */
  printer?: AppDeps['printer'];
  /**
   * Checks every answer of `app.inject` against the app's OpenAPI description: a status it does
   * not document, or a body that does not match, fails the call (server/test/response-check.ts).
   * On by default, except in the files of UNCHECKED.
   */
  checkResponses?: boolean | ResponseCheckOptions;
};

/**
 * API test files whose answers disagree with the description today, so their answers are not
 * checked until it is fixed. Take a file out once the description says what it gets.
 */
const UNCHECKED = [
  // Adds a probe route of its own, which the description does not know.
  'server/lib/filter/filter-language.api.test.ts',
  // The personal-data exports (JSON or ZIP, one route) describe no body for their 200.
  'server/modules/users/personal-data.api.test.ts',
];

/** In a vitest file not listed in UNCHECKED (benchmarks and scripts are never checked). */
async function checkedByDefault() {
  if (!process.env.VITEST) return false;
  const { expect } = await import('vitest');
  const file = expect.getState().testPath ?? '';
  return !UNCHECKED.some((f) => file.endsWith(f));
}

/** A whole server on a fresh database, for `app.inject` tests and the browser tests. */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'podium-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    WEB_DIST: options.webDist ?? path.join(dataDir, 'no-web'),
    PUBLIC_ORIGIN: 'http://podium.test',
    LOG_LEVEL: 'silent',
    ...options.env,
  });
  const database = await createTestDatabase();
  const app = await buildApp({
    config,
    database,
    mailer: options.mailer ?? createMailer(config, { info: () => {} }),
    storage: createStorage(config),
    clock: options.clock,
    printer: options.printer,
    logger: options.logger ?? false,
  });
  options.prepare?.(app, database);
  await app.ready();
  if (options.checkResponses ?? (await checkedByDefault())) {
    checkResponses(app, typeof options.checkResponses === 'object' ? options.checkResponses : {});
  }
  const outbox = path.join(dataDir, 'outbox');

  return {
    app,
    database,
    config,
    dataDir,
    deliverMail: () => app.mailWorker.deliverDue(),
    async lastMail(to) {
      await app.mailWorker.deliverDue();
      const mails = (await readOutbox(outbox)).filter((m) => m.to.includes(to));
      return mails.at(-1);
    },
    async createUser(seed = {}) {
      const password = seed.password ?? 'parola-buna-123';
      const row = await makeUser(database.db, { ...seed, password });
      return { ...row, password };
    },
    async login(email, password) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/auth-service/auth/login',
        payload: { email, password },
      });
      if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
      const { token, userId } = res.json() as { token: string; userId: string };
      return { authorization: `Bearer ${token}`, userid: userId };
    },
    async close() {
      await app.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The error code of an error response. */
export const errorCode = (res: LightMyRequestResponse) =>
  (res.json() as { error?: { code?: string } }).error?.code;
