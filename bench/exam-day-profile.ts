// `npx tsx bench/exam-day-profile.ts bench/results/CPU.….cpuprofile [top] [phases.json phase]`:
// where the server's CPU went during an `npm run bench -- exam-day --profile` run — self time by
// package or source folder, and the busiest functions; with the run's phases file (written
// beside the profile) and a phase name (arrival, start, answer, finish), that phase alone.

import { readFileSync } from 'node:fs';
import path from 'node:path';

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number };

/** node_modules/<package>, a source folder of this project, node internals, or a V8 bucket. */
function bucketOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return url.split('/')[0] ?? url;
  const m = url.match(/\/(server|shared|bench)\/(.*)$/);
  if (m) return `${m[1]}/${path.dirname(m[2] ?? '')}`;
  return url;
}

const [file, topArg, phasesFile, phase] = process.argv.slice(2);
if (!file) {
  console.error(
    'usage: npx tsx bench/exam-day-profile.ts <file.cpuprofile> [top] [phases.json phase]',
  );
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
// Samples are timed on the same monotonic clock (µs) as the phases the bench wrote.
const window = phasesFile
  ? (JSON.parse(readFileSync(phasesFile, 'utf8')) as Record<string, [number, number]>)[phase ?? '']
  : undefined;
if (phasesFile && !window) {
  console.error(`no phase ${phase} in ${phasesFile}`);
  process.exit(2);
}
const self = new Map<number, number>();
let at = profile.startTime;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas[i] ?? 0;
  if (window && (at < window[0] || at > window[1])) return;
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
const idle = [...self].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)');
const idleUs = idle.reduce((a, [, us]) => a + us, 0);
const busy = total - idleUs;

const buckets = new Map<string, number>();
const functions = new Map<string, number>();
for (const [id, us] of self) {
  const n = byId.get(id);
  if (!n || n.callFrame.functionName === '(idle)') continue;
  const { functionName, url, lineNumber } = n.callFrame;
  const b = bucketOf(url, functionName);
  buckets.set(b, (buckets.get(b) ?? 0) + us);
  const key = `${functionName || '(anonymous)'} ${url ? `${path.basename(url)}:${lineNumber + 1}` : ''}`;
  functions.set(key, (functions.get(key) ?? 0) + us);
}
const pct = (us: number) => `${((us / busy) * 100).toFixed(1).padStart(5)}%`;
console.log(
  `${file}${window ? ` (${phase})` : ''}: ${(total / 1e6).toFixed(1)} s profiled, busy ${(busy / 1e6).toFixed(1)} s (${((busy / total) * 100).toFixed(0)}%)\n`,
);
console.log('self time by package or folder (share of busy time):');
for (const [b, us] of [...buckets].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`  ${pct(us)}  ${b}`);
}
console.log('\nbusiest functions (self time):');
for (const [f, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`  ${pct(us)}  ${f}`);
}
