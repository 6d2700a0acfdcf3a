// `npm start`: build the web app if needed, then serve it with the API.
import { spawn } from 'node:child_process';
import './node-version.mjs';
import { ensureWebBuild } from './web-build.mjs';

ensureWebBuild();
const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
