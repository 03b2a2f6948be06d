import { join } from 'node:path';
import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { databasePassFiles } from './scripts/test/database-pass.ts';
import { LongestFirstSequencer } from './scripts/test/sequencer.ts';

// Workspace packages export their TypeScript sources under the "source" condition (the build under the
// default one): tests run the sources, never a stale dist/.
const conditions = ['source', ...defaultServerConditions];

/**
 * Tests against a real Docker Engine, real Podman and a real registry: slow and independent of the
 * manager's database, so they run once per CI run, in the SQLite pass (TEST_DATABASE_URL unset).
 */
const REAL_ENGINE_TESTS = 'packages/manager/test/real-engines/engines.test.ts';
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
// The config is read more than once per run (and again by the workers): said once.
if (onPostgres && !process.env.REAL_ENGINES_NOTICE) {
  process.env.REAL_ENGINES_NOTICE = 'said';
  console.log('[test] the real-engine tests run in the SQLite pass only (TEST_DATABASE_URL is set)');
}

// CI's PostgreSQL pass runs only the files whose proof depends on the database (scripts/test/database-pass.ts);
// without TEST_PASS every file runs, on whichever database TEST_DATABASE_URL names.
const databasePass = process.env.TEST_PASS === 'database';
if (process.env.TEST_PASS && !databasePass)
  throw new Error(`TEST_PASS=${process.env.TEST_PASS}: expected database`);

// CI asks for a JSON report of each pass (its totals and slowest files): TEST_REPORT_DIR names the folder.
const reportDir = process.env.TEST_REPORT_DIR;

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['source'] } },
  test: {
    // Fails a test in which a Proxmox VE request (or the fake's answer) does not fit the official schema.
    setupFiles: ['packages/fakes/test/setup/pve-schema-guard.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // As patient as the browser tests' waits (15 s): vitest's 1 s failed a page re-rendering after a
    // reload on a loaded machine.
    expect: { poll: { timeout: 15_000 } },
    pool: 'forks',
    maxWorkers: 2,
    sequence: { sequencer: LongestFirstSequencer },
    // A worker runs its files one after another in one module graph: importing the services' modules
    // again for each file took a quarter of the suite's time. Nothing a file leaves behind may reach the
    // next one: each starts its own servers, databases and browsers and stops them in its afterAll.
    isolate: false,
    ...(reportDir && {
      reporters: ['default', 'json'],
      outputFile: { json: join(reportDir, `vitest-${onPostgres ? 'postgres' : 'sqlite'}.json`) },
    }),
    projects: databasePass
      ? [{ extends: true as const, test: { name: 'main', include: databasePassFiles() } }]
      : mainProjects(),
  },
});

/** Every project of a whole run: the unit specs, the main project and, on SQLite, the real engines. */
function mainProjects() {
  return [
    {
      // Service specs beside their service (`src/**/*.spec.ts`): in-memory repositories, no server, no
      // database, so they need none of the set-up above (and the PostgreSQL pass leaves them out).
      resolve: { conditions },
      ssr: { resolve: { conditions, externalConditions: ['source'] } },
      test: { name: 'unit', include: ['packages/*/src/**/*.spec.ts'], pool: 'threads' },
    },
    {
      extends: true as const,
      test: {
        name: 'main',
        include: ['packages/*/test/**/*.test.ts', 'scripts/test/**/*.test.ts'],
        exclude: [REAL_ENGINE_TESTS, '**/node_modules/**'],
      },
    },
    ...(onPostgres
      ? []
      : [
          {
            extends: true as const,
            test: {
              name: 'real-engines',
              include: [REAL_ENGINE_TESTS],
              globalSetup: ['packages/manager/test/real-engines/global-setup.ts'],
              // One file (engines.test.ts holds every suite, one after another), first on a worker of
              // its own: scripts/test/sequencer.ts.
              isolate: true,
              // dockerd's first start and the test image's push take a while.
              hookTimeout: 180_000,
              testTimeout: 90_000,
            },
          },
        ]),
  ];
}
