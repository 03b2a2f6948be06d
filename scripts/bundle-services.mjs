// The services' start files: each service's compiled code with server-kit, the slot grammar, the agent's
// shared rules, TypeBox and Kysely in one ES module (packages/<service>/dist/<service>.js). Those are about 1,200
// small modules that Node.js would otherwise find and load one by one at every start — 40 % of the
// start-up CPU. Every other package stays an import of node_modules (native modules, packages that read
// their own files, and the page client bundle, which is read next to its own module).
import { build } from 'esbuild';
import { SERVICES } from './build-steps.mjs';

const INLINED = new Set(['@app/server-kit', '@app/slots', '@app/agent', 'typebox', 'kysely']);
const PACKAGE_NAME = /^(@[^/]+\/)?[^/]+/;

const packagesOutside = {
  name: 'packages-outside',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, ({ path, kind }) => {
      if (kind === 'entry-point' || path.startsWith('node:')) return undefined;
      return INLINED.has(PACKAGE_NAME.exec(path)[0]) ? undefined : { path, external: true };
    });
  },
};

await Promise.all(
  SERVICES.map((service) =>
    build({
      entryPoints: [`packages/${service}/dist/src/main.js`],
      outfile: `packages/${service}/dist/${service}.js`,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      plugins: [packagesOutside],
      logLevel: 'warning',
    }),
  ),
);
