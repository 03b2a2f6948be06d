// `npm run bench [filter]`: runs every packages/*/bench/*.ts and scripts/bench-built.mjs (or those whose
// path contains the filter) one after another; each prints its own figures.
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const tsx = createRequire(import.meta.url).resolve('tsx');
const filter = process.argv[2] ?? '';
const scripts = readdirSync('packages')
  .map((name) => join('packages', name, 'bench'))
  .filter((dir) => existsSync(dir))
  .flatMap((dir) =>
    readdirSync(dir)
      .filter((file) => file.endsWith('.ts'))
      .map((file) => join(dir, file)),
  )
  .concat('scripts/bench-built.mjs')
  .filter((path) => path.includes(filter));

let failed = 0;
for (const script of scripts) {
  console.log(`\n### ${script}`);
  // The benches of packages/*/bench run the sources; bench-built.mjs runs the build, with plain node.
  const runner = script.endsWith('.mjs') ? [] : ['--conditions=source', '--import', tsx];
  const result = spawnSync(process.execPath, [...runner, script], {
    stdio: 'inherit',
    env: { ...process.env, LOG_LEVEL: 'silent' },
  });
  if (result.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
