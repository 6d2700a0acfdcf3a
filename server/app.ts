import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import Fastify, {
  type FastifyInstance,
  type FastifyServerOptions,
  type RouteOptions,
} from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { type Clock, systemClock } from './lib/clock.js';
import { registerCompression } from './lib/compression.js';
import {
  clientErrorHandler,
  frameworkErrors,
  MAX_HEADER_BYTES,
  MAX_PARAM_LENGTH,
  registerErrorHandler,
} from './lib/errors.js';
import { registerScratchSweep } from './lib/files/scratch-sweep.js';
import type { FileStorage } from './lib/files/storage.js';
import { noteRequest } from './lib/jobs/activity.js';
import { registerPeriodicJob } from './lib/jobs/periodic.js';
import type { Mailer } from './lib/mail/mailer.js';
import { createMailOutbox } from './lib/mail/outbox.js';
import { createMailWorker, type MailWorker } from './lib/mail/worker.js';
import { createMetrics, type Metrics, registerRequestMetrics } from './lib/metrics.js';
import { createNotices } from './lib/notices.js';
import { registerApiDescription } from './lib/openapi/index.js';
import { defaultOrigin } from './lib/origin.js';
import { auditPersonalData, type PersonalDataPart } from './lib/personal-data.js';
import { rateLimitStore } from './lib/rate-limit/store.js';
import { loggerOptions, OneLinePerRequest } from './lib/request-log.js';
import { registerSecurityHeaders } from './lib/security-headers.js';
import { lazyServerKey } from './lib/server-keys.js';
import { registerStatementLimits } from './lib/statement-limits.js';
import { registerTextInputCheck } from './lib/text-input.js';
import { tracingOrigin } from './lib/tracing.js';
import { registerWebApp } from './lib/web-app.js';
import {
  accountRoutes,
  accountService,
  authMailPreparers,
  authPersonalData,
  authRoutes,
  authService,
  cutAccess,
  oidcRoutes,
  oidcService,
  registerThrottleCleanup,
  throttleRoutes,
  throttleService,
} from './modules/auth/index.js';
import {
  diplomaJobs,
  diplomasPersonalData,
  diplomasRoutes,
  diplomasService,
  findDiplomasOfChanged,
} from './modules/diplomas/index.js';
import { examMgmt, examMgmtRoutes, examsPersonalData } from './modules/exams/index.js';
import { healthRoutes, readinessCheck, registerDatabaseGauges } from './modules/health/index.js';
import { homeRoutes, homeService, searchService } from './modules/home/index.js';
import { mailRoutes, mailService } from './modules/mail/index.js';
import {
  notificationsPersonalData,
  notificationsRoutes,
  notificationsService,
  notifyFromMail,
} from './modules/notifications/index.js';
import {
  playerPersonalData,
  playerRoutes,
  playerService,
  registerExamDayStats,
  registerSweeper,
} from './modules/player/index.js';
import {
  dataImportRoutes,
  leaveQuestionPools,
  resourceMgmt,
  resourceMgmtRoutes,
} from './modules/questions/index.js';
import {
  closeStandings,
  rankingsPersonalData,
  rankingsRoutes,
  rankingsService,
  rulesService,
} from './modules/rankings/index.js';
import { resultsPersonalData } from './modules/results/index.js';
import {
  openMarkingWork,
  reviewsPersonalData,
  reviewsRoutes,
  reviewsService,
} from './modules/reviews/index.js';
import {
  createPdfPrinter,
  type PdfPrinter,
  paperPrinter,
  testsRoutes,
  testsService,
} from './modules/test-papers/index.js';
import {
  paperJobs,
  paperRoutes,
  paperService,
  testStudentsService,
  uploadsPersonalData,
  uploadsRoutes,
  uploadsService,
} from './modules/uploads/index.js';
import {
  peopleRoutes,
  peopleService,
  personalDataRoutes,
  personalDataService,
  usersRoutes,
  usersService,
} from './modules/users/index.js';

export type AppDeps = {
  config: Config;
  database: Database;
  mailer: Mailer;
  storage: FileStorage;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
  /** Run background jobs (the attempt sweeper) in this process; the server does, tests call them. */
  runJobs?: boolean;
  /** What prints test papers; default the system Chromium (config `chromiumPath`). */
  printer?: PdfPrinter;
};

export const API_PREFIX = '/api/v1';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends the mail that is due; the server runs it on a timer, tests call it. */
    mailWorker: MailWorker;
    /**
     * From now on readiness answers 503 `stopping`, so balancers take this instance out while
     * it still serves what they send (server/main.ts calls it on SIGTERM).
     */
    beginStopping(): void;
    /**
     * Makes the queued diploma ZIPs: `wake` starts a run soon (the server also runs it on a
     * timer); `runPending` makes them now and resolves when done (tests call it).
     */
    diplomaJobs: { wake(): void; runPending(): Promise<number> };
    /** The same for paper booklets and scans (server/modules/uploads/paper-jobs.ts). */
    paperJobs: { wake(): void; runPending(): Promise<number> };
    /**
     * Every route as it was registered, hidden ones included: the access matrix and the fuzzer
     * walk it, so a route added later is checked without anyone listing it.
     */
    routeTable: readonly RegisteredRoute[];
    /** What `/metrics` serves (METRICS_PORT); undefined when metrics are off. */
    metrics: Metrics | undefined;
  }
}

export type RegisteredRoute = {
  method: string;
  url: string;
  schema: RouteOptions['schema'];
  /** Whether the OpenAPI description leaves it out (the slash twins). */
  hidden: boolean;
};

/**
 * What each module keeps about a person (server/lib/personal-data.ts): a data-subject export
 * gathers these parts and anonymising runs them, in this order — the uploads part finds the
 * answers' pages before the results part forgets them. A module joins with one line here.
 */
const PERSONAL_DATA: readonly PersonalDataPart[] = [
  authPersonalData,
  examsPersonalData,
  playerPersonalData,
  uploadsPersonalData,
  resultsPersonalData,
  reviewsPersonalData,
  rankingsPersonalData,
  diplomasPersonalData,
  notificationsPersonalData,
  auditPersonalData,
];

/** How often each process looks for due mail when no request woke it. */
const MAIL_POLL_MS = 2_000;
/** How often each process looks for diploma ZIPs to make (and old ones to delete). */
const DIPLOMA_JOBS_POLL_MS = 5_000;
const PAPER_JOBS_POLL_MS = 5_000;
/** How often rankings too large to rebuild within a request are looked for. */
const RANKING_REBUILDS_POLL_MS = 2_000;

/** Builds the whole server: plugins, error handling, modules, and the web app. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database, mailer } = deps;
  const clock = deps.clock ?? systemClock;
  const app = Fastify({
    logger: loggerOptions(deps.logger, deps.config.logLevel),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Long filters travel in the URL (SPEC.md's lists are GETs): see MAX_HEADER_BYTES.
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    clientErrorHandler,
    frameworkErrors,
    // Request ids let a support person find one student's request in the logs.
    genReqId: () => crypto.randomUUID(),
    // One line per request, written when it is answered, instead of Fastify's two.
    logController: new OneLinePerRequest(),
  });

  const routeTable: RegisteredRoute[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routeTable.push({
        method,
        url: route.url,
        schema: route.schema,
        hidden: (route.schema as { hide?: boolean } | undefined)?.hide === true,
      });
    }
  });

  // Each route's statements are limited by its class (exam day, request, export).
  registerStatementLimits(app, API_PREFIX, config.statementTimeouts);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  // Every text of every route's body, query and path, checked once before any schema.
  registerTextInputCheck(app);

  app.addHook('onRequest', (_request, _reply, done) => {
    noteRequest();
    done();
  });
  // Counted for the operator's own port only (server/lib/metrics.ts); nothing here is public.
  const metrics = config.metrics.port === undefined ? undefined : createMetrics(database);
  app.decorate('metrics', metrics);
  if (metrics) {
    registerRequestMetrics(app, metrics);
    registerDatabaseGauges(metrics, database.db, clock, config.player.answerGraceSeconds);
  }
  registerSecurityHeaders(app, tracingOrigin(config));
  await registerCompression(app);
  // Routes marked `acrossProcesses` count in the database, shared by every instance.
  await app.register(rateLimit, {
    global: false,
    store: rateLimitStore({ db: database.db, clock }),
  });
  await app.register(multipart, { limits: { fileSize: config.files.maxBytes, files: 20 } });
  await registerApiDescription(app, API_PREFIX);

  app.decorateRequest('actor', null);

  // Composition root: each service gets exactly what it needs.
  const users = usersService({ db: database.db });
  let wakeMail = () => {};
  const outbox = createMailOutbox({
    clock,
    maxPerRecipientPerHour: config.mail.maxPerRecipientPerHour,
    onEnqueued: () => wakeMail(),
    alsoNotify: notifyFromMail,
  });
  const throttle = throttleService({ db: database.db, config, clock });
  const auth = authService({ db: database.db, config, clock, outbox, users, throttle });
  app.decorate('resolveSession', auth.resolveSession);
  const mailWorker = createMailWorker({
    db: database.db,
    clock,
    mailer,
    log: app.log,
    maxAttempts: config.mail.maxAttempts,
    // Longer than the longest send (three timeouts) before another worker may take it again.
    leaseMs: config.mail.timeoutSeconds * 5_000,
    preparers: authMailPreparers({ db: database.db, config, clock, users }),
  });
  app.decorate('mailWorker', mailWorker);
  if (deps.runJobs) {
    wakeMail = registerPeriodicJob(app, {
      name: 'mail-worker',
      intervalMs: MAIL_POLL_MS,
      run: () => mailWorker.deliverDue(),
      runAtStart: 'background',
      // A request that queued a mail wakes the worker; its transaction commits after it
      // returns, so the run comes a moment later, when the row is visible.
      wakeDelayMs: 50,
    }).wake;
  }

  let stopping = false;
  app.decorate('beginStopping', () => {
    stopping = true;
  });
  await app.register(
    healthRoutes(
      database,
      readinessCheck({ database, storage: deps.storage, mailer, stopping: () => stopping }),
    ),
    { prefix: API_PREFIX },
  );
  await app.register(authRoutes(auth, config), { prefix: `${API_PREFIX}/auth-service` });
  await app.register(
    accountRoutes(accountService({ db: database.db, clock, users, throttle }), config),
    { prefix: `${API_PREFIX}/auth-service` },
  );
  await app.register(throttleRoutes(throttle), { prefix: `${API_PREFIX}/auth-service` });
  if (deps.runJobs) registerThrottleCleanup(app, throttle);
  await app.register(
    oidcRoutes(oidcService({ db: database.db, config, clock, users, auth, outbox }), config),
    { prefix: `${API_PREFIX}/auth-service` },
  );
  await app.register(usersRoutes(users), { prefix: `${API_PREFIX}/user-mgmt` });
  const people = peopleService({
    db: database.db,
    outbox,
    cutAccess,
    personalData: PERSONAL_DATA,
    storage: deps.storage,
    openMarkingWork,
    leaveQuestionPools,
  });
  await app.register(peopleRoutes(people, config), { prefix: `${API_PREFIX}/user-mgmt` });
  await app.register(
    personalDataRoutes(
      personalDataService({
        db: database.db,
        storage: deps.storage,
        parts: PERSONAL_DATA,
        now: () => clock.now(),
      }),
    ),
    { prefix: `${API_PREFIX}/user-mgmt` },
  );
  await app.register(mailRoutes(mailService({ db: database.db, clock, wake: () => wakeMail() })), {
    prefix: `${API_PREFIX}/mail-service`,
  });
  const notices = createNotices(database, app.log);
  app.addHook('onClose', () => notices.close());
  const player = playerService({ database, clock, storage: deps.storage, config, notices });
  const endRunningAttempts = player.endRunningAttemptsOfPhase;
  // The question bank, its imports and the statement images (other modules read it from here).
  const resources = resourceMgmt({
    db: database.db,
    storage: deps.storage,
    maxBytes: config.files.maxBytes,
  });
  // Marking, mediation and appeals; exam-mgmt starts a phase's review through it.
  const reviews = reviewsService({
    db: database.db,
    clock,
    storage: deps.storage,
    outbox,
    questions: resources.questions,
    origin: defaultOrigin(config),
    idKey: lazyServerKey(database.db, 'review-ids'),
  });
  // Each student's standing kept at a phase's close; closing again says who changes.
  const standings = closeStandings({ outbox, origin: defaultOrigin(config) });
  const exams = examMgmt({
    db: database.db,
    clock,
    endRunningAttempts,
    beginReview: reviews.beginReview,
    settleOpenScores: reviews.settleOpenScores,
    settleStandings: standings.settleStandings,
    keepClosedStandings: standings.keepClosedStandings,
    findChangedDiplomas: findDiplomasOfChanged,
  });
  await app.register(examMgmtRoutes(exams), { prefix: `${API_PREFIX}/exam-mgmt` });
  await app.register(reviewsRoutes(reviews), { prefix: `${API_PREFIX}/test-review` });
  await app.register(resourceMgmtRoutes(resources), { prefix: `${API_PREFIX}/resource-mgmt` });
  await app.register(dataImportRoutes(resources), { prefix: `${API_PREFIX}/data-import` });
  // One Chromium per process prints test papers; it starts on the first print. Each distinct
  // paper is printed once, a few at a time (paper-printer.ts).
  const printer = paperPrinter(
    deps.printer ?? createPdfPrinter({ executablePath: config.chromiumPath }),
    config.papers,
  );
  app.addHook('onClose', () => printer.close());
  await app.register(
    testsRoutes(testsService({ db: database.db, images: resources.files, printer })),
    { prefix: `${API_PREFIX}/test-mgmt` },
  );

  const uploads = uploadsService({
    db: database.db,
    storage: deps.storage,
    clock,
    maxFileBytes: config.files.maxBytes,
  });
  await app.register(
    uploadsRoutes(uploads, testStudentsService({ db: database.db }), config.files.maxBytes),
    { prefix: `${API_PREFIX}/upload-mgmt` },
  );

  const paper = paperJobs({ db: database.db, clock, storage: deps.storage, uploads });
  app.addHook('onClose', () => paper.close());
  const paperPeriodic = deps.runJobs
    ? registerPeriodicJob(app, {
        name: 'paper-jobs',
        intervalMs: PAPER_JOBS_POLL_MS,
        run: async () => {
          await paper.runPending();
        },
      })
    : undefined;
  app.decorate('paperJobs', {
    wake: () => paperPeriodic?.wake(),
    runPending: () => paper.runPending(),
  });

  await app.register(
    paperRoutes(paperService({ db: database.db, storage: deps.storage, clock, uploads })),
    { prefix: `${API_PREFIX}/upload-mgmt` },
  );
  await app.register(playerRoutes(player, notices), { prefix: `${API_PREFIX}/test-player` });
  await app.register(
    notificationsRoutes(
      notificationsService({ db: database.db, clock, myTests: (actor) => player.myTests(actor) }),
    ),
    { prefix: `${API_PREFIX}/notification-service` },
  );
  await app.register(
    homeRoutes(
      homeService({
        db: database.db,
        clock,
        myTests: (actor) => player.myTests(actor),
        markerPhases: (actor) => reviews.myPhases(actor),
        countExams: async (actor) => (await exams.exams.countExams(actor, undefined)).count,
      }),
      searchService({ db: database.db }),
    ),
    { prefix: `${API_PREFIX}/home-service` },
  );
  const rankings = rankingsService({ db: database.db, clock });
  await app.register(rankingsRoutes(rankings, rulesService({ db: database.db, clock })), {
    prefix: `${API_PREFIX}/ranking-service`,
  });
  if (deps.runJobs) {
    registerPeriodicJob(app, {
      name: 'ranking-rebuilds',
      intervalMs: RANKING_REBUILDS_POLL_MS,
      run: () => rankings.rebuildWanted(),
    });
  }
  if (deps.runJobs) registerSweeper(app, player, config.player.sweepIntervalSeconds);
  // Always, like the answers it counts: the exam-day panel reads every process's counts.
  registerExamDayStats(app, player);
  if (deps.runJobs) registerScratchSweep(app, deps.storage, clock);

  const diplomas = diplomasService({
    db: database.db,
    clock,
    storage: deps.storage,
    maxArchiveBytes: config.diplomaJobs.maxBytes,
  });
  const jobs = diplomaJobs({ db: database.db, clock, storage: deps.storage });
  // Hooks run in reverse: the periodic job (added below) stops before its thread ends.
  app.addHook('onClose', () => jobs.close());
  const periodic = deps.runJobs
    ? registerPeriodicJob(app, {
        name: 'diploma-jobs',
        intervalMs: DIPLOMA_JOBS_POLL_MS,
        run: async () => {
          await jobs.runPending();
          await diplomas.removeExpiredFiles();
        },
      })
    : undefined;
  app.decorate('diplomaJobs', {
    wake: () => periodic?.wake(),
    runPending: () => jobs.runPending(),
  });
  await app.register(diplomasRoutes(diplomas, config), {
    prefix: `${API_PREFIX}/diploma-generator`,
  });

  await registerWebApp(app, config.webDist, config.tracing);
  return app;
}
