import { describe, expect, it } from 'vitest';
// A plain ES module, run by `npm run lint`; its rules are tested here.
import { checkLayout } from './check-layout.mjs';

const check = (files: Record<string, string>): string[] =>
  checkLayout(new Map(Object.entries(files)));

describe('layout check', () => {
  it('refuses a deep import into another server module and names its public entry', () => {
    const problems = check({
      'server/modules/player/player.service.ts':
        "import { holdRegistration } from '../exams/registration.js';",
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('[module-public-entry]');
    expect(problems[0]).toContain('server/modules/exams/index.ts');
  });

  it('lets a module use another through its index, and its own files freely', () => {
    expect(
      check({
        'server/modules/player/player.service.ts':
          "import { holdRegistration } from '../exams/index.js';\nimport * as repo from './player.repo.js';",
      }),
    ).toEqual([]);
  });

  it('counts re-exports and dynamic imports too', () => {
    const problems = check({
      'server/modules/uploads/a.ts': "export { x } from '../results/results.repo.js';",
      'server/modules/uploads/b.ts': "const m = await import('../results/scoring.js');",
    });
    expect(problems).toHaveLength(2);
  });

  it('keeps server/lib and server/db below the modules', () => {
    const problems = check({
      'server/db/factories.ts': "import { sha256 } from '../modules/auth/index.js';",
    });
    expect(problems.join()).toContain('[lib-and-db-below-modules]');
  });

  it('refuses a circle between modules', () => {
    const problems = check({
      'server/modules/a/a.service.ts': "import { b } from '../b/index.js';",
      'server/modules/b/b.service.ts': "import { a } from '../a/index.js';",
    });
    expect(problems.join()).toContain('[module-cycle]');
  });

  it('keeps web features apart and below app/', () => {
    const problems = check({
      'web/src/features/users/Page.tsx':
        "import { useAuth } from '../../app/providers/auth.js';\nimport { X } from '../exams/ExamsPage.js';",
      'web/src/app/routes.tsx': "import { ExamsPage } from '../features/exams/ExamsPage.js';",
      'web/src/lib/auth.tsx': "import * as a from '../features/auth/api/auth-api.js';",
    });
    expect(problems).toHaveLength(4);
    expect(problems.join('\n')).toContain('[app-uses-feature-entries]');
    expect(problems.join('\n')).toContain('[shared-web-pieces-below-features]');
  });

  it('keeps shared/ free of server and web code', () => {
    expect(check({ 'shared/x.ts': "import { db } from '../server/db/client.js';" })).toHaveLength(
      1,
    );
  });
});

describe('one writer per table', () => {
  const schema = {
    'server/modules/results/results.schema.ts':
      "export const answers = pgTable(\n  'answers',\n  { id: uuid('id') },\n);",
  };

  it('refuses a write of another module’s table, by drizzle or by SQL text', () => {
    const problems = check({
      ...schema,
      'server/modules/player/player.repo.ts': 'await db.update(answers).set({ score: null });',
      'server/modules/uploads/uploads.repo.ts':
        'await db.execute(sql`insert into answers (id) values ($1)`);',
      'server/modules/test-papers/tests.repo.ts': `await db.execute(sql\`update \${answers} set score = 0\`);`,
    });
    expect(problems).toHaveLength(3);
    expect(problems.every((p) => p.includes('[one-writer-per-table]'))).toBe(true);
  });

  it('lets the owner write, anyone read, and tests and the seed write freely', () => {
    expect(
      check({
        ...schema,
        'server/modules/results/results.repo.ts': 'await db.insert(answers).values(row);',
        'server/modules/uploads/uploads.repo.ts': 'await db.select().from(answers);',
        'server/modules/player/player.api.test.ts': 'await db.delete(answers);',
        'server/db/factories.ts': 'await db.insert(answers).values(row);',
      }),
    ).toEqual([]);
  });
});
