import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Migrations are history, run by server-kit's runner: application code reaches them only through each
// service's registry module (src/db/store.ts), never a migration file's exports.
const migrationsOutsideStore = {
  group: ['**/migrations/**', '**/migrations'],
  message: 'Import migrations only in src/db/store.ts (constants shared with code go in src/db/).',
};

// Specs beside their service and the in-memory repositories they use: never built, never imported by
// the code that ships (server-kit's src/testing is the exception: other packages' tests import it).
const TEST_CODE_IN_SRC = ['packages/*/src/**/*.spec.ts', 'packages/{manager,translator}/src/testing/**'];
const testCodeInProduction = {
  group: ['**/*.spec.ts', './testing/**', '../testing/**', '../../testing/**'],
  message: 'Specs and in-memory repositories are test code: production code does not import them.',
};

const QUERY_ENTRY_POINTS = [
  'selectFrom',
  'selectNoFrom',
  'insertInto',
  'replaceInto',
  'updateTable',
  'deleteFrom',
  'mergeInto',
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'coverage/**', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Tests, fakes and migrations handle loosely typed JSON and Kysely's untyped schema builder.
    files: [
      'packages/*/test/**',
      'packages/*/migrations/**',
      'packages/server-kit/src/testing/**',
      'packages/fakes/**',
    ],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // SQL lives in repositories (one per aggregate, `*-repository.ts`) and the schema/store modules;
    // services receive repositories. Transactions may be opened anywhere and handed to repositories.
    files: ['packages/manager/src/**', 'packages/translator/src/**'],
    ignores: [
      'packages/*/src/**/*-repository.ts',
      'packages/*/src/db/**',
      // Infrastructure: Postgres notifications, and the backup copy/restore that moves whole tables.
      'packages/manager/src/fleet.ts',
      'packages/manager/src/site-config/wiring.ts',
      'packages/translator/src/changes.ts',
      'packages/translator/src/backups/copy.ts',
      'packages/translator/src/backups/restore.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `CallExpression[callee.property.name=/^(${QUERY_ENTRY_POINTS.join('|')})$/]`,
          message: 'Queries belong in a *-repository.ts file: give this module a repository.',
        },
        {
          selector: "ImportDeclaration[source.value='kysely'] > ImportSpecifier[imported.name='sql']",
          message: 'Raw SQL belongs in a *-repository.ts file: give this module a repository.',
        },
      ],
    },
  },
  {
    // Migrations are history, run by server-kit's runner: application code reaches them only through
    // each service's registry module (src/db/store.ts), never a migration file's exports.
    files: ['packages/*/src/**'],
    ignores: ['packages/*/src/db/store.ts', ...TEST_CODE_IN_SRC],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [migrationsOutsideStore, testCodeInProduction],
        },
      ],
    },
  },
  {
    files: TEST_CODE_IN_SRC,
    rules: {
      'no-restricted-imports': ['error', { patterns: [migrationsOutsideStore] }],
    },
  },
  {
    // A Mantine Loader is a bare span: axe refuses an aria-label on it (aria-prohibited-attr), and only on
    // the pages where the test happens to catch it loading. web-kit's Busy is a named status instead.
    files: ['packages/*-web/src/**', 'packages/web-kit/src/**'],
    ignores: ['packages/web-kit/src/Busy.tsx'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXOpeningElement[name.name='Loader'] > JSXAttribute[name.name='aria-label']",
          message: "Name a spinner with web-kit's <Busy label=…>, not a Loader's aria-label.",
        },
      ],
    },
  },
  {
    // The translator serves the page client, so the page client's code never imports the translator:
    // what both need, such as the slot grammar, lives in a package of its own. (Its tests run against
    // a real translator through @app/translator/testing.)
    files: ['packages/page-client/src/**', 'packages/page-client/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            migrationsOutsideStore,
            {
              group: ['@app/translator', '@app/translator/*'],
              message: 'The translator depends on the page client, not the other way round.',
            },
          ],
        },
      ],
    },
  },
);
