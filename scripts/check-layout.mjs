// Guards the layout of DESIGN.md (`npm run lint`). Each rule is data: which files it covers,
// which imports of theirs it refuses, and what to do instead. Imports are read with
// TypeScript's own pre-processor, so every `import`, `export … from` and `import()` counts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const moduleOf = (p) => p.match(/^server\/modules\/([^/]+)\//)?.[1];
const featureOf = (p) => p.match(/^web\/src\/features\/([^/]+)\//)?.[1];
const isModuleEntry = (p) => /^server\/modules\/[^/]+\/index\.(ts|js)$/.test(p);
const isFeatureEntry = (p) => /^web\/src\/features\/[^/]+\/index\.(ts|js)$/.test(p);
const isSchema = (p) => /\.schema\.ts$/.test(p);
/** The one file that gathers every module's tables (for the client, migrations and joins). */
const SCHEMA_BARREL = 'server/db/schema.ts';
/** Foreign keys name other modules' tables: a schema file may import another schema file. */
const isTableReference = (from, to) => (from === SCHEMA_BARREL || isSchema(from)) && isSchema(to);

/**
 * The rules. `files` picks the importing files, `refuses(from, to)` says whether an import of
 * `to` (a repository path, or a package name) from `from` breaks the rule.
 */
export const RULES = [
  {
    name: 'shared-stands-alone',
    files: (f) => f.startsWith('shared/'),
    refuses: (_, to) => to.startsWith('server/') || to.startsWith('web/'),
    advice: 'shared/ is used by both sides and imports nothing of server/ or web/',
  },
  {
    name: 'module-public-entry',
    files: (f) => f.startsWith('server/'),
    refuses: (from, to) => {
      const other = moduleOf(to);
      if (other === undefined || other === moduleOf(from) || isModuleEntry(to)) return false;
      // A test may build its world with another module's fixtures (test support, never code).
      if (/\.test\.ts$/.test(from) && /\.fixtures\.ts$/.test(to)) return false;
      return !isTableReference(from, to);
    },
    advice: (_, to) =>
      `import it through server/modules/${moduleOf(to)}/index.ts (the module's public entry), adding it there if other modules may use it`,
  },
  {
    name: 'lib-and-db-below-modules',
    files: (f) => f.startsWith('server/lib/') || f.startsWith('server/db/'),
    refuses: (from, to) => to.startsWith('server/modules/') && !isTableReference(from, to),
    advice:
      'server/lib and server/db serve the modules and import none of them; move the shared piece to server/lib',
  },
  {
    name: 'features-stand-alone',
    files: (f) => featureOf(f) !== undefined,
    refuses: (from, to) => {
      const other = featureOf(to);
      return (other !== undefined && other !== featureOf(from)) || to.startsWith('web/src/app/');
    },
    advice:
      'features import neither each other nor app/; move the shared piece to web/src/components, web/src/lib or web/src/api',
  },
  {
    name: 'app-uses-feature-entries',
    files: (f) => f.startsWith('web/src/app/') || f === 'web/src/main.tsx',
    refuses: (_, to) => featureOf(to) !== undefined && !isFeatureEntry(to),
    advice: (_, to) => `import it through web/src/features/${featureOf(to)}/index.ts`,
  },
  {
    name: 'shared-web-pieces-below-features',
    files: (f) =>
      f.startsWith('web/src/components/') ||
      f.startsWith('web/src/lib/') ||
      f.startsWith('web/src/api/'),
    refuses: (_, to) => featureOf(to) !== undefined || to.startsWith('web/src/app/'),
    advice: 'components/, lib/ and api/ are used by features and app/, and import neither',
  },
];

/** The relative imports of one source text, as repository paths (extension kept as written). */
export function importsOf(file, source) {
  const { importedFiles } = ts.preProcessFile(source, true, true);
  return importedFiles
    .map((i) => i.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      // Sources import `x.js` for `x.ts`/`x.tsx`; rules compare with the source file's name.
      return target.replace(/\.js$/, '.ts');
    });
}

/**
 * Checks sources (path → text). Returns one line per import a rule refuses, and one per
 * import cycle between server modules.
 */
export function checkLayout(sources) {
  const problems = [];
  const moduleEdges = new Map();
  for (const [file, source] of sources) {
    for (const to of importsOf(file, source)) {
      for (const rule of RULES) {
        if (!rule.files(file) || !rule.refuses(file, to)) continue;
        const advice = typeof rule.advice === 'function' ? rule.advice(file, to) : rule.advice;
        problems.push(`${file}: imports ${to} [${rule.name}]: ${advice}`);
      }
      const from = moduleOf(file);
      const other = moduleOf(to);
      if (
        from &&
        other &&
        from !== other &&
        !/\.test\.ts$/.test(file) &&
        !isTableReference(file, to)
      ) {
        if (!moduleEdges.has(from)) moduleEdges.set(from, new Set());
        moduleEdges.get(from).add(other);
      }
    }
  }
  problems.push(...foreignWrites(sources));
  for (const cycle of cyclesOf(moduleEdges)) {
    problems.push(
      `server modules import each other in a circle: ${cycle.join(' → ')} [module-cycle]: one of them must stop depending on the other (pass a function in from the composition root, or move the shared piece to server/lib)`,
    );
  }
  return problems;
}

/**
 * Files that write tables on purpose whatever their owner: test support and the demo seed
 * (factories shared by both), and the migrator.
 */
const MAY_WRITE_ANY_TABLE = [
  /\.test\.ts$/,
  /\.fixtures\.ts$/,
  /^server\/test\//,
  /^server\/db\/factories\.ts$/,
  /^server\/db\/migrate\.ts$/,
];

/** Where a table's writers live: its schema file's module folder, or its folder in server/lib. */
const ownerFolderOf = (schemaFile) => {
  const module = moduleOf(schemaFile);
  return module ? `server/modules/${module}/` : `${path.posix.dirname(schemaFile)}/`;
};

/**
 * One writer per table (DESIGN.md): every `pgTable` of a `*.schema.ts` is written only from its
 * owner's folder. Writes are drizzle's `.insert(t)`, `.update(t)`, `.delete(t)` and SQL text's
 * `insert into`, `update … set`, `delete from`, by table variable or by SQL name.
 */
function foreignWrites(sources) {
  const tables = new Map();
  for (const [file, source] of sources) {
    if (!isSchema(file)) continue;
    for (const m of source.matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g)) {
      const owner = ownerFolderOf(file);
      tables.set(m[1], { sqlName: m[2], owner });
      tables.set(m[2], { sqlName: m[2], owner });
    }
  }
  const problems = [];
  const writes = [
    /\.(?:insert|update|delete)\(\s*(\w+)\s*\)/g,
    /\binsert\s+into\s+(?:\$\{\s*)?"?(\w+)/gi,
    /\bdelete\s+from\s+(?:\$\{\s*)?"?(\w+)/gi,
    /\bupdate\s+(?:\$\{\s*)?"?(\w+)"?\s*\}?\s+(?:as\s+\w+\s+)?set\b/gi,
  ];
  for (const [file, source] of sources) {
    if (!file.startsWith('server/') || MAY_WRITE_ANY_TABLE.some((re) => re.test(file))) continue;
    const seen = new Set();
    for (const re of writes) {
      for (const m of source.matchAll(re)) {
        const table = tables.get(m[1]);
        if (!table || file.startsWith(table.owner) || seen.has(table.sqlName)) continue;
        seen.add(table.sqlName);
        problems.push(
          `${file}: writes table ${table.sqlName}, which belongs to ${table.owner} [one-writer-per-table]: ask its owner through its public functions`,
        );
      }
    }
  }
  return problems;
}

/** Each elementary cycle of a small graph once, as a closed path. */
function cyclesOf(edges) {
  const found = new Map();
  const walk = (start, node, trail) => {
    for (const next of edges.get(node) ?? []) {
      if (next === start) {
        const cycle = [...trail, start];
        const key = [...trail].sort().join(',');
        if (!found.has(key)) found.set(key, cycle);
      } else if (!trail.includes(next) && next > start) {
        walk(start, next, [...trail, next]);
      }
    }
  };
  for (const start of edges.keys()) walk(start, start, [start]);
  return [...found.values()];
}

function sourceFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = path.posix.join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    if (statSync(p).isDirectory()) return sourceFiles(p);
    return /\.(ts|tsx|mjs|js)$/.test(name) ? [p] : [];
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  process.chdir(root);
  const sources = new Map(
    ['shared', 'server', 'web/src'].flatMap(sourceFiles).map((f) => [f, readFileSync(f, 'utf8')]),
  );
  const problems = checkLayout(sources);
  if (problems.length) {
    console.error(`Layout check failed (${problems.length}):\n${problems.join('\n')}`);
    process.exit(1);
  }
  console.log(`Layout check passed (${sources.size} files, ${RULES.length} rules).`);
}
