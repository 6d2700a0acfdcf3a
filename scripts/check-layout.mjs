// Guards the layout of DESIGN.md: shared/ imports nothing of server/ or web/; no server module
// imports another module's repo; no web feature imports another feature.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const files = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (name === 'node_modules' || name === 'dist') return [];
    return statSync(p).isDirectory() ? files(p) : /\.(ts|tsx|mjs|js)$/.test(name) ? [p] : [];
  });

const importsOf = (file) =>
  [
    ...readFileSync(file, 'utf8').matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g),
  ].map((m) => m[1]);

const problems = [];
const resolve = (file, spec) =>
  spec.startsWith('.') ? path.normalize(path.join(path.dirname(file), spec)) : spec;

for (const file of files('shared')) {
  for (const spec of importsOf(file)) {
    const target = resolve(file, spec);
    if (target.startsWith('server') || target.startsWith('web'))
      problems.push(`${file}: shared/ must not import ${spec}`);
  }
}

const moduleOf = (p) => p.match(/^server\/modules\/([^/]+)\//)?.[1];
for (const file of files('server')) {
  const own = moduleOf(file);
  for (const spec of importsOf(file)) {
    const target = resolve(file, spec);
    const other = moduleOf(target);
    if (other && other !== own && /\.repo(\.js|\.ts)?$/.test(target)) {
      problems.push(`${file}: imports the repo of module "${other}"; call its service instead`);
    }
  }
}

const featureOf = (p) => p.match(/^web\/src\/features\/([^/]+)\//)?.[1];
for (const file of files('web/src')) {
  const own = featureOf(file);
  for (const spec of importsOf(file)) {
    const other = featureOf(resolve(file, spec));
    if (own && other && other !== own)
      problems.push(
        `${file}: imports feature "${other}"; move shared pieces to components/ or lib/`,
      );
  }
}

if (problems.length) {
  console.error(`Layout check failed:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log('Layout check passed.');
