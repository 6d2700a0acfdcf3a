import path from 'node:path';
import { DEFAULT_STATEMENT_TIMEOUTS, type StatementTimeouts } from './db/statement-timeout.js';
import { configuredOrigin } from './lib/origin.js';

/**
 * Environment → typed configuration. With nothing set, Podium runs embedded: PGlite under
 * DATA_DIR, files under DATA_DIR/files, mail written to DATA_DIR/outbox.
 */
export type Config = {
  port: number;
  host: string;
  publicOrigin: string | undefined;
  /** Other origins Podium is reached at; a request through one of them gets links to it. */
  linkOrigins: string[];
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * Set when DATABASE_URL is a pooler in transaction mode (`DATABASE_POOLER=transaction`, e.g.
   * PgBouncer's `pool_mode = transaction`): PostgreSQL itself, for the LISTEN connection and
   * the migrations (DATABASE_DIRECT_URL). Undefined: DATABASE_URL is PostgreSQL.
   */
  databaseDirectUrl: string | undefined;
  /** PostgreSQL: each statement's time limit by request class (server/db/statement-timeout.ts). */
  statementTimeouts: StatementTimeouts;
  logLevel: string;
  trustProxy: boolean;
  admin: { email: string | undefined; password: string | undefined };
  session: { ttlHours: number };
  links: { confirmTtlHours: number; resetTtlMinutes: number; loginTtlMinutes: number };
  /** Sign-in throttling (server/modules/auth/throttle.rules.ts). */
  auth: {
    /** Failures on one account from one address before each further try waits. */
    pairFailuresBeforeDelay: number;
    /** Failures on one account from every address together before each further try waits. */
    accountFailuresBeforeDelay: number;
    /** Accounts one address failed on (and did not then sign in to) before it is slowed. */
    addressAccountsBeforeDelay: number;
    /** The longest wait: the waits double from 1 s up to this. */
    maxDelaySeconds: number;
    /** A counter with no failure for this long starts again. */
    failureWindowMinutes: number;
  };
  rateLimit: { authPerMinute: number };
  /** Exam day: answers in flight accepted this long after a deadline; the sweeper's period. */
  player: { answerGraceSeconds: number; sweepIntervalSeconds: number };
  files: {
    maxBytes: number;
    /** Each storage call gives up when connecting, or the storage saying nothing, takes longer. */
    timeoutSeconds: number;
    s3: {
      endpoint: string | undefined;
      region: string;
      bucket: string | undefined;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      forcePathStyle: boolean;
    };
  };
  mail: {
    smtpUrl: string | undefined;
    from: string;
    /** Each wait on the SMTP server (connect, greeting, any reply) gives up after this. */
    timeoutSeconds: number;
    /** Attempts of one mail before it is marked failed (retries back off: 30 s, 1 min, 2 min…). */
    maxAttempts: number;
    /** Mails asked for by anyone (confirmations, resets) to one address per hour. */
    maxPerRecipientPerHour: number;
  };
  oidc: {
    issuer: string | undefined;
    clientId: string | undefined;
    clientSecret: string | undefined;
    label: string;
    /** How Podium proves itself at the token endpoint (the provider's registration says). */
    tokenAuthMethod: 'client_secret_basic' | 'client_secret_post';
    /** Take the provider's e-mails as verified when it does not say (`email_verified` absent). */
    trustEmails: boolean;
  };
  /**
   * `/metrics` (Prometheus text) on a port of its own, never the public one; undefined: off.
   * `host` is loopback unless set; with a token a scrape must send it as a bearer token.
   */
  metrics: { port: number | undefined; host: string; token: string | undefined };
  /**
   * Error tracing to a Sentry-compatible service (server/lib/tracing.ts); off while `dsn` is
   * unset. The web app sends to the same DSN, told by the page the server serves.
   */
  tracing: { dsn: string | undefined; environment: string | undefined };
  webDist: string;
  /** Chromium that prints test papers (and drives the browser tests). */
  chromiumPath: string;
  /** Printing test papers (server/modules/test-papers/paper-printer.ts), per server process. */
  papers: {
    /** Papers Chromium prints at once. */
    printsAtOnce: number;
    /** Papers waiting for a free print; one more is refused with 503 PDF_BUSY. */
    printsWaiting: number;
    /** Printed PDFs kept for the next download of the same paper, in bytes. */
    cacheBytes: number;
  };
  /** Background diploma ZIPs (server/modules/diplomas/diploma-jobs.ts). */
  diplomaJobs: {
    /** The finished archives kept, all together, at most; past it a new job is refused. */
    maxBytes: number;
  };
};

const int = (v: string | undefined, d: number) => {
  const n = v === undefined || v === '' ? d : Number.parseInt(v, 10);
  if (!Number.isFinite(n)) throw new Error(`Expected a number, got ${v}`);
  return n;
};
const bool = (v: string | undefined, d: boolean) =>
  v === undefined || v === '' ? d : ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());
const str = (v: string | undefined) => (v === undefined || v === '' ? undefined : v);

function oidcAuthMethod(v: string | undefined): Config['oidc']['tokenAuthMethod'] {
  const method = str(v) ?? 'client_secret_basic';
  if (method !== 'client_secret_basic' && method !== 'client_secret_post') {
    throw new Error(`OIDC_TOKEN_AUTH_METHOD must be client_secret_basic or client_secret_post`);
  }
  return method;
}

/** Variables an older Podium read, with what replaced them (warned about at start-up). */
const RETIRED: Record<string, string> = {
  AUTH_MAX_FAILURES_PER_ACCOUNT:
    'AUTH_PAIR_FAILURES_BEFORE_DELAY and AUTH_ACCOUNT_FAILURES_BEFORE_DELAY (failures slow, never lock)',
  AUTH_MAX_FAILURES_PER_ADDRESS:
    'AUTH_ADDRESS_ACCOUNTS_BEFORE_DELAY (counts accounts, not failures)',
};

/** One warning for each retired variable that is still set. */
export const retiredVariables = (env: NodeJS.ProcessEnv = process.env): string[] =>
  Object.entries(RETIRED)
    .filter(([name]) => str(env[name]) !== undefined)
    .map(([name, instead]) => `${name} is no longer read; see ${instead} in README.md`);

function throttleConfig(env: NodeJS.ProcessEnv): Config['auth'] {
  const auth = {
    pairFailuresBeforeDelay: int(env.AUTH_PAIR_FAILURES_BEFORE_DELAY, 5),
    accountFailuresBeforeDelay: int(env.AUTH_ACCOUNT_FAILURES_BEFORE_DELAY, 50),
    addressAccountsBeforeDelay: int(env.AUTH_ADDRESS_ACCOUNTS_BEFORE_DELAY, 100),
    maxDelaySeconds: int(env.AUTH_MAX_DELAY_SECONDS, 900),
    failureWindowMinutes: int(env.AUTH_FAILURE_WINDOW_MINUTES, 60),
  };
  for (const [name, value] of Object.entries(auth)) {
    if (value < 1) throw new Error(`auth.${name} must be at least 1, got ${value}`);
  }
  // A counter forgotten before its wait ends would end the wait early.
  if (auth.failureWindowMinutes * 60 < auth.maxDelaySeconds) {
    throw new Error('AUTH_FAILURE_WINDOW_MINUTES must be at least AUTH_MAX_DELAY_SECONDS long');
  }
  return auth;
}

/** DATABASE_POOLER and DATABASE_DIRECT_URL, refused unless they make sense together. */
function databaseDirectUrl(env: NodeJS.ProcessEnv): string | undefined {
  const pooler = str(env.DATABASE_POOLER) ?? 'none';
  const direct = str(env.DATABASE_DIRECT_URL);
  if (pooler !== 'none' && pooler !== 'transaction') {
    throw new Error(`DATABASE_POOLER must be none or transaction, got ${pooler}`);
  }
  if (pooler === 'none') {
    if (direct !== undefined) {
      throw new Error('DATABASE_DIRECT_URL is read only with DATABASE_POOLER=transaction');
    }
    return undefined;
  }
  if (str(env.DATABASE_URL) === undefined) {
    throw new Error('DATABASE_POOLER=transaction needs DATABASE_URL (the pooler)');
  }
  if (direct === undefined) {
    throw new Error(
      'DATABASE_POOLER=transaction needs DATABASE_DIRECT_URL (PostgreSQL itself, for LISTEN and migrations)',
    );
  }
  return direct;
}

/** SENTRY_DSN, refused at start-up unless it is an http(s) URL with a key and a project. */
function tracingDsn(v: string | undefined): string | undefined {
  const dsn = str(v);
  if (dsn === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(dsn);
  } catch {
    url = undefined;
  }
  if (!url || !/^https?:$/.test(url.protocol) || !url.username || url.pathname.length < 2) {
    throw new Error('SENTRY_DSN must look like https://<key>@<host>/<project>');
  }
  return dsn;
}

function paperConfig(env: NodeJS.ProcessEnv): Config['papers'] {
  const papers = {
    printsAtOnce: int(env.PAPER_PRINTS_AT_ONCE, 2),
    printsWaiting: int(env.PAPER_PRINTS_WAITING, 8),
    cacheBytes: int(env.PAPER_CACHE_MB, 64) * 1024 * 1024,
  };
  if (papers.printsAtOnce < 1) throw new Error('PAPER_PRINTS_AT_ONCE must be at least 1');
  if (papers.printsWaiting < 0 || papers.cacheBytes < 0) {
    throw new Error('PAPER_PRINTS_WAITING and PAPER_CACHE_MB cannot be negative');
  }
  return papers;
}

function diplomaJobsConfig(env: NodeJS.ProcessEnv): Config['diplomaJobs'] {
  const maxMb = int(env.DIPLOMA_JOBS_MAX_MB, 2048);
  if (maxMb < 1) throw new Error('DIPLOMA_JOBS_MAX_MB must be at least 1');
  return { maxBytes: maxMb * 1024 * 1024 };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  return {
    port: int(env.PORT, 3000),
    host: env.HOST ?? '0.0.0.0',
    publicOrigin: str(env.PUBLIC_ORIGIN)?.replace(/\/$/, ''),
    linkOrigins: (env.LINK_ORIGINS ?? '')
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean)
      .map((v) => configuredOrigin('LINK_ORIGINS', v)),
    dataDir,
    databaseUrl: str(env.DATABASE_URL),
    databaseDirectUrl: databaseDirectUrl(env),
    statementTimeouts: {
      examDayMs: int(env.STATEMENT_TIMEOUT_EXAM_DAY_MS, DEFAULT_STATEMENT_TIMEOUTS.examDayMs),
      requestMs: int(env.STATEMENT_TIMEOUT_REQUEST_MS, DEFAULT_STATEMENT_TIMEOUTS.requestMs),
      exportMs: int(env.STATEMENT_TIMEOUT_EXPORT_MS, DEFAULT_STATEMENT_TIMEOUTS.exportMs),
    },
    logLevel: env.LOG_LEVEL ?? 'info',
    trustProxy: bool(env.TRUST_PROXY, false),
    admin: { email: str(env.ADMIN_EMAIL), password: str(env.ADMIN_PASSWORD) },
    session: { ttlHours: int(env.SESSION_TTL_HOURS, 24 * 14) },
    links: {
      confirmTtlHours: int(env.CONFIRM_LINK_TTL_HOURS, 72),
      resetTtlMinutes: int(env.RESET_LINK_TTL_MINUTES, 60),
      loginTtlMinutes: int(env.LOGIN_LINK_TTL_MINUTES, 10),
    },
    auth: throttleConfig(env),
    rateLimit: { authPerMinute: int(env.AUTH_RATE_LIMIT_PER_MINUTE, 300) },
    player: {
      answerGraceSeconds: int(env.ANSWER_GRACE_SECONDS, 10),
      sweepIntervalSeconds: int(env.SWEEP_INTERVAL_SECONDS, 5),
    },
    files: {
      maxBytes: int(env.UPLOAD_MAX_BYTES, 10 * 1024 * 1024),
      timeoutSeconds: int(env.STORAGE_TIMEOUT_SECONDS, 10),
      s3: {
        endpoint: str(env.S3_ENDPOINT),
        region: env.S3_REGION ?? 'us-east-1',
        bucket: str(env.S3_BUCKET),
        accessKeyId: str(env.S3_ACCESS_KEY_ID),
        secretAccessKey: str(env.S3_SECRET_ACCESS_KEY),
        forcePathStyle: bool(env.S3_FORCE_PATH_STYLE, true),
      },
    },
    mail: {
      smtpUrl: str(env.SMTP_URL),
      from: env.MAIL_FROM ?? 'Podium <no-reply@podium.local>',
      timeoutSeconds: int(env.MAIL_TIMEOUT_SECONDS, 10),
      maxAttempts: int(env.MAIL_MAX_ATTEMPTS, 8),
      maxPerRecipientPerHour: int(env.MAIL_MAX_PER_RECIPIENT_PER_HOUR, 5),
    },
    oidc: {
      issuer: str(env.OIDC_ISSUER),
      clientId: str(env.OIDC_CLIENT_ID),
      clientSecret: str(env.OIDC_CLIENT_SECRET),
      label: env.OIDC_LABEL ?? 'School account',
      tokenAuthMethod: oidcAuthMethod(env.OIDC_TOKEN_AUTH_METHOD),
      trustEmails: bool(env.OIDC_TRUST_EMAILS, false),
    },
    metrics: {
      port:
        env.METRICS_PORT === undefined || env.METRICS_PORT === ''
          ? undefined
          : int(env.METRICS_PORT, 0),
      host: env.METRICS_HOST ?? '127.0.0.1',
      token: str(env.METRICS_TOKEN),
    },
    tracing: { dsn: tracingDsn(env.SENTRY_DSN), environment: str(env.SENTRY_ENVIRONMENT) },
    webDist: path.resolve(env.WEB_DIST ?? 'web/dist'),
    chromiumPath: env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    papers: paperConfig(env),
    diplomaJobs: diplomaJobsConfig(env),
  };
}
