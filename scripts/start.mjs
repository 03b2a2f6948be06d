// `npm start`: runs the manager and the translator side by side (each also runs alone with
// `npm start -w packages/<name>`), prefixes their output, and stops both on Ctrl-C or SIGTERM.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { SERVICE_ENV, nodeFlagsFor } from './service-node-flags.mjs';

// Build what is missing or stale (a fresh clone: everything), then run plain node on the build.
const build = spawnSync(process.execPath, ['scripts/build.mjs', '--stale'], { stdio: 'inherit' });
const services = [
  { name: 'manager', entry: 'packages/manager/dist/manager.js' },
  { name: 'translator', entry: 'packages/translator/dist/translator.js' },
];
if (build.status !== 0) {
  if (!services.every((service) => existsSync(service.entry))) process.exit(1);
  console.error('[start] the build failed: starting the previous build');
}

const children = services.map(({ name, entry }) => {
  const child = spawn(process.execPath, [...nodeFlagsFor(entry), entry], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...SERVICE_ENV, ...process.env },
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
