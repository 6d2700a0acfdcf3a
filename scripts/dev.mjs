// `npm run dev`: the API restarting on change (tsx watch) and Vite's dev server with hot reload
// on http://localhost:5173, proxying /api to the API on PORT (default 3000).
import { spawn } from 'node:child_process';
import './node-version.mjs';

const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'server/main.ts'], { stdio: 'inherit' }),
  spawn('npx', ['vite', '--config', 'web/vite.config.ts'], { stdio: 'inherit' }),
];
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children)
  c.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
