// What `npm run build` makes and when it is stale: a step needs running when one of its outputs is missing
// or one of its sources is newer than its oldest output (the staleness `npm start` checks before it runs).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const COMPILED = ['server-kit', 'slots', 'fakes', 'agent', 'page-client', 'manager', 'translator'];
const WEB_CLIENTS = ['manager-web', 'translator-web'];
export const SERVICES = ['manager', 'translator'];

export const steps = [
  {
    name: 'packages (tsc -b)',
    sources: [
      'tsconfig.base.json',
      'tsconfig.emit.json',
      ...COMPILED.flatMap((name) =>
        ['src', 'migrations', 'bundle.ts', 'prebuilt.ts', 'package.json', 'tsconfig.build.json'].map(
          (source) => `packages/${name}/${source}`,
        ),
      ),
    ],
    outputs: COMPILED.map((name) => `packages/${name}/dist/.tsbuildinfo`),
    command: () => [process.execPath, require.resolve('typescript/bin/tsc'), '-b', 'tsconfig.build.json'],
  },
  {
    name: 'page client bundle (esbuild)',
    sources: ['packages/page-client/src', 'packages/page-client/build.ts', 'packages/slots/src'],
    outputs: [
      'packages/page-client/dist/client.js',
      'packages/page-client/dist/editor.js',
      'packages/page-client/dist/render.js',
    ],
    command: () => [process.execPath, '--import', require.resolve('tsx'), 'packages/page-client/build.ts'],
  },
  {
    name: 'service start files (esbuild)',
    sources: ['scripts/bundle-services.mjs', ...COMPILED.map((name) => `packages/${name}/dist/.tsbuildinfo`)],
    outputs: SERVICES.map((name) => `packages/${name}/dist/${name}.js`),
    command: () => [process.execPath, 'scripts/bundle-services.mjs'],
  },
  ...WEB_CLIENTS.map((name) => ({
    name: `${name} (vite build)`,
    sources: [
      ...['src', 'public', 'index.html', 'vite.config.ts', 'package.json'].map(
        (s) => `packages/${name}/${s}`,
      ),
      'packages/web-kit/src',
    ],
    outputs: [`packages/${name}/dist/index.html`],
    command: () => ['npm', 'run', 'build', '-w', `packages/${name}`],
  })),
];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
}

export function isStale(step) {
  if (!step.outputs.every((output) => existsSync(output))) return true;
  const builtAt = Math.min(...step.outputs.map((output) => statSync(output).mtimeMs));
  return step.sources.some((source) => newest(source) > builtAt);
}
