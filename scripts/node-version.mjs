// Podium runs on a supported Node line only (package.json `engines`): an older one stops here
// with the reason, before anything is built or started.
import { readFileSync } from 'node:fs';

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const wanted = Number(/(\d+)/.exec(engines.node)?.[1]);
const major = Number(process.versions.node.split('.')[0]);

if (major < wanted) {
  console.error(
    `Podium needs Node.js ${wanted} or newer (${engines.node}); this is ${process.version}. ` +
      'Install a supported Node (https://nodejs.org, or your system’s packages) and run again.',
  );
  process.exit(1);
}
