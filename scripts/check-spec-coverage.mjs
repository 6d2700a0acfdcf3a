// Checks docs/SPEC-COVERAGE.md against the code: every call it lists has a route in the API
// description the server produces (shared/api/openapi.json, kept current by its own test),
// every message key it lists is shown by some screen (web/src), every error code it lists is
// produced somewhere in server/, and every file it names exists. A row whose status is not
// `holds` is an exception and must say why; its calls, keys and codes are not checked.
// Run by its test (scripts/check-spec-coverage.test.ts) in `npm test`, or directly:
// `node scripts/check-spec-coverage.mjs`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The server codes SPEC.md §8 names; each must be listed in the coverage file. */
export const SPEC_ERROR_CODES = [
  'CLIENT_ERROR',
  'VALIDATION_FAILED',
  'TEST_NOT_ACTIVE',
  'TEST_ALREADY_REVIEWED',
  'TEACHER_CODE_NOT_PROVIDED',
  'TEACHER_CODE_NOT_FOUND',
  'OVERLAPPING_PHASE_DATES',
  'INVALID_PHASE_DATES',
  'INVALID_TEST_DATE',
  'TEST_ALREADY_EXISTS',
  'INSUFFICIENT_TEACHERS_FOR_TEST_ITEMS',
  'OPERATION_NOT_PERMITTED',
  'EDITION_PHASE_NOT_CREATED',
  'INSUFFICIENT_TEST_ITEMS_FOR_CRITERIA',
  'GENERAL_ERROR',
];

/** The sections of SPEC.md; the coverage file has one heading for each. */
export const SPEC_SECTIONS = ['§1', '§2', '§3', '§4', '§5', '§6', '§7', '§8', '§9'];

const STATUSES = ['holds', 'departs', 'note'];
const MIN_REASON = 15;
const CALL = /^(GET|POST|PUT|PATCH|DELETE) (\/api\/v1\/[^\s?]+)(\?.*)?$/;
const FILE = /^(?:server|web|shared|e2e|scripts|docs|bench)\/[\w./[\]-]+\.(?:ts|tsx|mjs|md|json)$/;
const TEST_FILE = /\.(?:test\.ts|test\.tsx|e2e\.ts)$/;

/** `/exams/{examId}` and `/exams/{id}` are the same route. */
const normalisePath = (p) => p.replace(/\{[^}]+\}/g, '{}').replace(/\/$/, '');

/** Rows of the coverage file's tables, with the markers each one carries. */
export function parseCoverage(text) {
  const rows = [];
  const headings = [];
  let section = '';
  text.split('\n').forEach((line, index) => {
    const heading = /^##\s+(§\d+)/.exec(line);
    if (heading) {
      section = heading[1];
      headings.push(section);
      return;
    }
    if (!line.startsWith('|') || /^\|\s*-/.test(line) || /^\|\s*#\s*\|/.test(line)) return;
    const cells = line
      .slice(1, line.trimEnd().endsWith('|') ? line.trimEnd().length - 1 : undefined)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
    const status = cells.at(-1) ?? '';
    const m = /^(\w[\w-]*)(?::\s*(.*))?$/.exec(status);
    const row = {
      line: index + 1,
      section,
      id: cells[0],
      cells,
      status: m ? m[1] : status,
      reason: m?.[2]?.trim() ?? '',
      calls: [],
      keys: [],
      codes: [],
      files: [],
      testFiles: [],
    };
    const testCell = cells.length >= 2 ? cells[cells.length - 2] : '';
    for (const [, span] of line.matchAll(/`([^`]+)`/g)) {
      const call = CALL.exec(span);
      if (call) row.calls.push({ method: call[1], path: call[2] });
      else if (span.startsWith('key:')) row.keys.push(span.slice(4));
      else if (span.startsWith('code:')) row.codes.push(span.slice(5));
      else if (FILE.test(span)) row.files.push(span);
    }
    for (const [, span] of testCell.matchAll(/`([^`]+)`/g))
      if (FILE.test(span) && TEST_FILE.test(span)) row.testFiles.push(span);
    rows.push(row);
  });
  return { rows, headings };
}

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether a screen shows `key`: it is written whole as a string, or it is built by a template
 * whose fixed parts say most of it (`add_coordinator_success_msg_${state}`), or by a stem
 * written in the same file and a `${stem}_suffix` template there.
 */
export function isKeyShown(key, sources) {
  for (const text of sources.values()) {
    if (text.includes(`'${key}'`) || text.includes(`"${key}"`) || text.includes(`\`${key}\``))
      return true;
    for (const [, body] of text.matchAll(/`([^`\n]*\$\{[^`\n]*)`/g)) {
      const parts = body.split(/\$\{[^}]*\}/);
      const fixed = parts.join('');
      if (
        fixed.length >= 12 &&
        new RegExp(`^${parts.map(escapeRegExp).join('[a-z0-9_]+')}$`).test(key)
      )
        return true;
      const suffix = /^\$\{[^}]*\}([a-z0-9_]+)$/.exec(body)?.[1];
      if (suffix && key.endsWith(suffix)) {
        const stem = key.slice(0, -suffix.length);
        if (text.includes(`'${stem}'`)) return true;
      }
    }
  }
  return false;
}

/** Whether some server code raises or returns `code` (not only names it in a route's list). */
export function isCodeProduced(code, sources) {
  const quoted = new RegExp(`['"]${code}['"]`);
  for (const [file, text] of sources) {
    if (file.includes('/openapi/')) continue;
    for (const line of text.split('\n'))
      if (quoted.test(line) && !/\berrors:\s*\[/.test(line)) return true;
  }
  return false;
}

/**
 * Problems with the coverage file, one sentence each; empty when it is true.
 * `project`: routes ("GET /api/v1/…" with `{}` for parameters), web and server sources
 * (path → text), and `exists(file)`.
 */
export function checkCoverage(text, project) {
  const { rows, headings } = parseCoverage(text);
  const problems = [];
  const at = (row, what) => problems.push(`line ${row.line} (${row.id}): ${what}`);
  for (const s of SPEC_SECTIONS)
    if (!headings.includes(s)) problems.push(`no heading for SPEC.md ${s}`);
  if (rows.length === 0) problems.push('no requirement rows');
  const listedKeys = new Set();
  const listedCodes = new Set();
  for (const row of rows) {
    if (!row.section) at(row, 'row outside a SPEC section heading');
    if (!STATUSES.includes(row.status)) {
      at(row, `status must be one of ${STATUSES.join(', ')}, not "${row.status}"`);
      continue;
    }
    for (const file of row.files) if (!project.exists(file)) at(row, `${file} does not exist`);
    for (const k of row.keys) listedKeys.add(k);
    for (const c of row.codes) listedCodes.add(c);
    if (row.status !== 'holds') {
      if (row.reason.length < MIN_REASON) at(row, `"${row.status}" needs a written reason`);
      continue;
    }
    if (row.testFiles.length === 0) at(row, 'holds but names no test file in its Test column');
    for (const call of row.calls) {
      const route = `${call.method} ${normalisePath(call.path)}`;
      if (!project.routes.has(route)) at(row, `no route for ${call.method} ${call.path}`);
    }
    for (const key of row.keys)
      if (!isKeyShown(key, project.webSources)) at(row, `message key ${key} is in no screen`);
    for (const code of row.codes)
      if (!isCodeProduced(code, project.serverSources))
        at(row, `error code ${code} is never produced by the server`);
  }
  for (const key of project.specKeys ?? [])
    if (!listedKeys.has(key)) problems.push(`SPEC.md §8 key ${key} is not listed`);
  for (const code of SPEC_ERROR_CODES)
    if (!listedCodes.has(code)) problems.push(`SPEC.md §8 code ${code} is not listed`);
  return problems;
}

function walk(dir, keep, out = new Map()) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full, keep, out);
    else if (keep(full)) out.set(full, readFileSync(full, 'utf8'));
  }
  return out;
}

const isSource = (f) => /\.(?:ts|tsx)$/.test(f) && !/\.(?:test|api\.test)\.tsx?$/.test(f);

/** Everything `checkCoverage` needs, read from the repository at `root`. */
export function loadProject(root) {
  const openapi = JSON.parse(readFileSync(path.join(root, 'shared/api/openapi.json'), 'utf8'));
  const routes = new Set();
  for (const [p, ops] of Object.entries(openapi.paths))
    for (const method of Object.keys(ops))
      routes.add(`${method.toUpperCase()} ${normalisePath(p)}`);
  const webSources = walk(
    path.join(root, 'web/src'),
    (f) => isSource(f) && !f.endsWith(path.join('i18n', 'spec-keys.ts')),
  );
  const serverSources = walk(path.join(root, 'server'), isSource);
  const specKeysText = readFileSync(path.join(root, 'web/src/i18n/spec-keys.ts'), 'utf8');
  const specKeys = [...specKeysText.matchAll(/^\s+'([a-z0-9_]+)',$/gm)].map((m) => m[1]);
  return {
    routes,
    webSources,
    serverSources,
    specKeys,
    exists: (file) => existsSync(path.join(root, file)),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const text = readFileSync(path.join(root, 'docs/SPEC-COVERAGE.md'), 'utf8');
  const problems = checkCoverage(text, loadProject(root));
  for (const p of problems) console.error(`docs/SPEC-COVERAGE.md ${p}`);
  process.exit(problems.length ? 1 : 0);
}
