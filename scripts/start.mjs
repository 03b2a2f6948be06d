// `npm start`: runs the manager and the translator side by side (each also runs alone with
// `npm start -w packages/<name>`), prefixes their output, and stops both on Ctrl-C or SIGTERM.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { webClientStale } from './web-client-stale.mjs';

const require = createRequire(import.meta.url);
const tsx = require.resolve('tsx');

// The services serve their web clients from packages/*-web/dist: build each one that is missing or stale.
for (const name of readdirSync('packages').filter((dir) => dir.endsWith('-web'))) {
  const dir = `packages/${name}`;
  if (!webClientStale(dir)) continue;
  console.log(`[start] building ${name} (npm run build -w ${dir})`);
  const build = spawnSync('npm', ['run', 'build', '-w', dir], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) console.error(`[start] ${name} build failed: its service serves the API only`);
}
const services = [
  { name: 'manager', entry: 'packages/manager/src/main.ts' },
  { name: 'translator', entry: 'packages/translator/src/main.ts' },
].filter((service) => existsSync(service.entry));

const children = services.map(({ name, entry }) => {
  const child = spawn(process.execPath, ['--import', tsx, entry], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: process.env,
  });
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const line of lines) process.stdout.write(`[${name}] ${line}\n`);
    });
  }
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[${name}] exited (${signal ?? code}); stopping the others`);
      stop(code || 1);
    }
  });
  return child;
});

let stopping = false;
function stop(code = 0) {
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  Promise.all(
    children.map((child) => (child.exitCode === null ? new Promise((r) => child.on('exit', r)) : null)),
  ).then(() => process.exit(code));
}
process.on('SIGINT', () => stop());
process.on('SIGTERM', () => stop());
