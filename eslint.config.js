import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
    // Migrations are history, run by server-kit's runner: application code reaches them only through
    // each service's registry module (src/db/store.ts), never a migration file's exports.
    files: ['packages/*/src/**'],
    ignores: ['packages/*/src/db/store.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/migrations/**', '**/migrations'],
              message:
                'Import migrations only in src/db/store.ts (constants shared with code go in src/db/).',
            },
          ],
        },
      ],
    },
  },
);
