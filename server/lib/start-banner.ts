import path from 'node:path';
import type { Config } from '../config.js';
import { listenOrigin } from './origin.js';

/** The first admin, when this start created it: the password shows only here, only once. */
export type NewAdmin = { email: string; generatedPassword: string | undefined };

export type BannerFacts = {
  config: Config;
  databaseKind: 'pg' | 'pglite';
  /** The port the server listens on (PORT=0 picks one). */
  port: number;
  admin: NewAdmin | undefined;
  /** What else the operator should read at start (the origin, retired variables…). */
  warnings: readonly string[];
};

/** `host:port` of a URL, never its user or password (SMTP_URL may carry both). */
function hostOf(url: string): string {
  try {
    const { hostname, port } = new URL(url);
    return port ? `${hostname}:${port}` : hostname;
  } catch {
    return '(unreadable URL)';
  }
}

const shown = (dir: string) => {
  const relative = path.relative(process.cwd(), dir);
  return relative && !relative.startsWith('..') ? `./${relative}` : dir;
};

/**
 * What a person starting Podium on a terminal reads first: where it answers, the first admin's
 * sign-in (once), where the data, files and mail go, and what to change before a real exam.
 */
export function startBanner({ config, databaseKind, port, admin, warnings }: BannerFacts): string {
  const rows: Array<[string, string]> = [
    ['Address', config.publicOrigin ?? listenOrigin(config.host, port)],
  ];
  if (admin) {
    rows.push(['First admin', admin.email]);
    rows.push(
      admin.generatedPassword
        ? [
            'Password',
            `${admin.generatedPassword}   (shown only now; 'npm run admin -- --email … --password …' sets another)`,
          ]
        : ['Password', 'the one in ADMIN_PASSWORD'],
    );
  }
  rows.push([
    'Database',
    databaseKind === 'pglite'
      ? `embedded (PGlite) in ${shown(path.join(config.dataDir, 'pgdata'))}`
      : 'PostgreSQL (DATABASE_URL)',
  ]);
  const { s3 } = config.files;
  rows.push([
    'Files',
    s3.bucket
      ? `S3 bucket ${s3.bucket}${s3.endpoint ? ` at ${hostOf(s3.endpoint)}` : ''}`
      : shown(path.join(config.dataDir, 'files')),
  ]);
  rows.push([
    'Mail',
    config.mail.smtpUrl
      ? `sent through ${hostOf(config.mail.smtpUrl)}`
      : `kept in ${shown(path.join(config.dataDir, 'outbox'))}, not sent (set SMTP_URL); admins read it on the Mail page`,
  ]);
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  const notes = [
    ...(databaseKind === 'pglite'
      ? [
          'The embedded database is for trying Podium and small events; graded exams belong on PostgreSQL (set DATABASE_URL).',
        ]
      : []),
    ...warnings,
  ];
  return [
    '',
    '  Podium is running',
    '',
    ...rows.map(([label, value]) => `  ${`${label}:`.padEnd(width)}${value}`),
    ...(notes.length > 0 ? ['', ...notes.map((n) => `  ! ${n}`)] : []),
    '',
  ].join('\n');
}
