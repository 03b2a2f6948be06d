// `npm run build`: compiles every package to dist/, bundles the page client and builds both web clients.
// `node scripts/build.mjs --stale` runs only the steps whose outputs are missing or older than their
// sources (what `npm start` does first).
import { spawnSync } from 'node:child_process';
import { utimesSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isStale, steps } from './build-steps.mjs';

process.chdir(fileURLToPath(new URL('..', import.meta.url)));
const onlyStale = process.argv.includes('--stale');
for (const step of steps) {
  if (onlyStale && !isStale(step)) continue;
  console.log(`[build] ${step.name}`);
  let command;
  try {
    command = step.command();
  } catch {
    // A production install (`npm ci --omit=dev`) has no compiler: it runs the tree it was given.
    console.error(
      `[build] ${step.name}: the build tools are not installed (run \`npm ci\`, then \`npm run build\`)`,
    );
    process.exit(1);
  }
  const [program, ...args] = command;
  const result = spawnSync(program, args, {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) {
    console.error(`[build] ${step.name} failed`);
    process.exit(1);
  }
  // tsc -b leaves outputs it found up to date untouched: mark them as built now.
  const now = new Date();
  for (const output of step.outputs) utimesSync(output, now, now);
}
