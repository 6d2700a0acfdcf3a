import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { startBanner } from './start-banner.js';

const embedded = loadConfig({ DATA_DIR: path.join(process.cwd(), 'data') });

describe('the start-up banner', () => {
  it('shows a new admin and their password once, and the embedded defaults', () => {
    const text = startBanner({
      config: embedded,
      databaseKind: 'pglite',
      port: 3000,
      admin: { email: 'admin@podium.local', generatedPassword: 'k3J9-x7Qw-2mPa-8zLr' },
      warnings: [],
    });
    expect(text).toContain('Address:     http://localhost:3000');
    expect(text).toContain('First admin: admin@podium.local');
    expect(text).toContain('k3J9-x7Qw-2mPa-8zLr');
    expect(text).toContain('embedded (PGlite) in ./data/pgdata');
    expect(text).toContain('Files:       ./data/files');
    expect(text).toMatch(/Mail: +kept in \.\/data\/outbox, not sent \(set SMTP_URL\)/);
    expect(text).toMatch(/! The embedded database is for trying Podium/);
  });

  it('leaves the admin out on a later start and never prints the mail or storage secrets', () => {
    const config = loadConfig({
      PORT: '8080',
      PUBLIC_ORIGIN: 'https://olimpiada.example.ro',
      DATABASE_URL: 'postgres://podium:db-secret@db.internal:5432/podium',
      SMTP_URL: 'smtps://mailer:smtp-secret@smtp.example.ro:465',
      S3_BUCKET: 'podium-files',
      S3_ENDPOINT: 'https://s3.example.ro',
      S3_SECRET_ACCESS_KEY: 's3-secret',
    });
    const text = startBanner({
      config,
      databaseKind: 'pg',
      port: 8080,
      admin: undefined,
      warnings: ['LINK_ORIGINS is empty'],
    });
    expect(text).toContain('https://olimpiada.example.ro');
    expect(text).not.toContain('First admin');
    expect(text).not.toContain('Password');
    expect(text).toContain('PostgreSQL (DATABASE_URL)');
    expect(text).toContain('S3 bucket podium-files at s3.example.ro');
    expect(text).toContain('sent through smtp.example.ro:465');
    expect(text).toContain('! LINK_ORIGINS is empty');
    expect(text).not.toMatch(/secret|embedded/);
  });

  it('says the password came from ADMIN_PASSWORD without printing it', () => {
    const text = startBanner({
      config: loadConfig({ ADMIN_PASSWORD: 'chosen-password-42' }),
      databaseKind: 'pglite',
      port: 3000,
      admin: { email: 'ana@example.ro', generatedPassword: undefined },
      warnings: [],
    });
    expect(text).toContain('the one in ADMIN_PASSWORD');
    expect(text).not.toContain('chosen-password-42');
  });
});
