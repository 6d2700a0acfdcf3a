import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// A plain ES module, also runnable on its own; its rules are tested here, then applied to the
// real coverage file.
import {
  checkCoverage,
  isCodeProduced,
  isKeyShown,
  loadProject,
  type Project,
  SPEC_ERROR_CODES,
  SPEC_SECTIONS,
} from './check-spec-coverage.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const headings = SPEC_SECTIONS.map((s) => `## ${s} x`).join('\n');
const codesRow = `| 8.0 | codes | ${SPEC_ERROR_CODES.map((c) => `\`code:${c}\``).join(' ')} | \`e2e/a.e2e.ts\` | holds |`;
const project = (over: Partial<Project> = {}): Project => ({
  routes: new Set(['GET /api/v1/exam-mgmt/exams/{}', 'DELETE /api/v1/exam-mgmt/exams/{}']),
  webSources: new Map([['web/src/a.tsx', "notify('msg_change_success');"]]),
  serverSources: new Map([
    ['server/a.ts', SPEC_ERROR_CODES.map((c) => `throw new AppError('${c}');`).join('\n')],
  ]),
  specKeys: [],
  exists: (f) => f === 'e2e/a.e2e.ts' || f === 'server/a.ts',
  ...over,
});
const check = (rows: string, over?: Partial<Project>) =>
  checkCoverage(
    `${headings}\n| # | r | where | test | status |\n|-|-|-|-|-|\n${codesRow}\n${rows}`,
    project(over),
  );

describe('SPEC coverage check', () => {
  it('accepts a row whose call, key and code all exist', () => {
    expect(
      check(
        '| 7.1 | delete | `DELETE /api/v1/exam-mgmt/exams/{examId}` `key:msg_change_success` `server/a.ts` | `e2e/a.e2e.ts` | holds |',
      ),
    ).toEqual([]);
  });

  it('fails when a listed call has no route', () => {
    const problems = check(
      '| 7.2 | x | `PUT /api/v1/exam-mgmt/exams/{examId}/archive` | `e2e/a.e2e.ts` | holds |',
    );
    expect(problems.join()).toContain('no route for PUT /api/v1/exam-mgmt/exams/{examId}/archive');
  });

  it('fails when a listed key is in no screen, or a listed code is never produced', () => {
    const problems = check(
      '| 8.1 | x | `key:msg_nowhere` `code:EXAM_HAS_EDITIONS` | `e2e/a.e2e.ts` | holds |',
    );
    expect(problems.join('\n')).toContain('message key msg_nowhere is in no screen');
    expect(problems.join('\n')).toContain('error code EXAM_HAS_EDITIONS is never produced');
  });

  it('fails on a missing file, a holding row without a test, and a bad status', () => {
    const problems = check(
      [
        '| 1 | x | `server/gone.ts` | `e2e/a.e2e.ts` | holds |',
        '| 2 | x | `server/a.ts` | by hand | holds |',
        '| 3 | x | `server/a.ts` | `e2e/a.e2e.ts` | probably |',
      ].join('\n'),
    );
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/server\/gone\.ts does not exist/);
    expect(problems.join('\n')).toMatch(/names no test file/);
    expect(problems.join('\n')).toMatch(/status must be one of/);
  });

  it('lets an exception through only with a written reason', () => {
    const call = '`PUT /api/v1/exam-mgmt/exams/{examId}/archive`';
    expect(
      check(`| 7.3 | x | ${call} | — | departs: the blind lists are shuffled on purpose |`),
    ).toEqual([]);
    expect(check(`| 7.3 | x | ${call} | — | departs |`).join()).toContain('needs a written reason');
  });

  it('fails when a SPEC section, a SPEC key or a SPEC code is not listed', () => {
    const problems = checkCoverage(
      '## §1 only\n| 1 | x | — | `e2e/a.e2e.ts` | holds |',
      project({ specKeys: ['msg_change_success'] }),
    );
    expect(problems).toContain('no heading for SPEC.md §9');
    expect(problems).toContain('SPEC.md §8 key msg_change_success is not listed');
    expect(problems).toContain('SPEC.md §8 code TEST_NOT_ACTIVE is not listed');
  });

  it('finds keys built from templates and codes named only in a route list', () => {
    // Source text of screens, so the `${…}` here are the screens' own, not this test's.
    const d = '$';
    const web = new Map([
      ['a.tsx', `report.success(\`add_coordinator_success_msg_${d}{state}\`);`],
      ['b.tsx', `const k = 'msg_change_student_grade';\nreport(\`${d}{k}_error\`);`],
      ['c.tsx', `report(\`msg_${d}{x}\`);`],
    ]);
    expect(isKeyShown('add_coordinator_success_msg_checked', web)).toBe(true);
    expect(isKeyShown('msg_change_student_grade_error', web)).toBe(true);
    expect(isKeyShown('msg_anything', web)).toBe(false);
    const server = new Map([['r.ts', "errors: ['OIDC_FAILED'],"]]);
    expect(isCodeProduced('OIDC_FAILED', server)).toBe(false);
  });

  it('holds for docs/SPEC-COVERAGE.md', () => {
    const text = readFileSync(path.join(root, 'docs/SPEC-COVERAGE.md'), 'utf8');
    expect(checkCoverage(text, loadProject(root))).toEqual([]);
  });
});
