// Bundles the site agent into one ES module for its Debian package: Node.js runs it with no
// node_modules beside it. Usage: node bundle-agent.mjs OUTFILE
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const source = (path) => fileURLToPath(new URL(`../../packages/${path}`, import.meta.url));

// The agent takes only the environment readers and ConfigError from server-kit, and the outbound policy
// for its ACME client from `@app/server-kit/https-guard`. server-kit's index re-exports the database,
// HTTP and outbound modules too, whose top-level code esbuild must keep (4 MB with Fastify, undici and
// the SQLite binding's loader); the agent's own import names keep the build honest: anything it starts
// importing from server-kit that config.ts lacks fails the bundle.
const serverKitConfigOnly = {
  name: 'server-kit-config-only',
  setup(builder) {
    builder.onResolve({ filter: /^@app\/server-kit$/ }, () => ({ path: source('server-kit/src/config.ts') }));
    builder.onResolve({ filter: /^@app\/server-kit\/https-guard$/ }, () => ({
      path: source('server-kit/src/outbound/https-guard.ts'),
    }));
  },
};

await build({
  entryPoints: [source('agent/src/cli.ts')],
  outfile: process.argv[2],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  legalComments: 'inline',
  plugins: [serverKitConfigOnly],
  // commander is CommonJS and requires Node's modules; an ES module bundle has no require of its own.
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
