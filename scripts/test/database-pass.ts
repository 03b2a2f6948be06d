/**
 * The test files whose proof depends on the database, so CI runs them on PostgreSQL as well as on
 * SQLite: repositories, migrations and upgrades, the database commands, jobs and their leases,
 * LISTEN/NOTIFY between processes, transactions, locks and concurrent writes, backups and restores.
 * Every other file proves HTTP, browser, agent or tooling behaviour through the same repositories and
 * runs once, in the SQLite pass. `TEST_PASS=database` selects this list (vitest.config.ts);
 * scripts/test/database-pass.test.ts keeps it true (every path exists, and every file that runs only on
 * PostgreSQL is on it, so that none runs nowhere). Add a file here when it tests what a database does.
 */
export const DATABASE_PASS: Record<string, string[]> = {
  'the database layer': [
    'packages/server-kit/test/database.test.ts',
    'packages/server-kit/test/db-admin.test.ts',
  ],
  'schemas, migrations and upgrades': [
    'packages/manager/test/repositories.test.ts',
    'packages/manager/test/schema-types.test.ts',
    'packages/manager/test/migration-007.test.ts',
    'packages/manager/test/migration-012.test.ts',
    'packages/manager/test/upgrade.test.ts',
    'packages/manager/test/db-commands.test.ts',
    'packages/translator/test/repositories.test.ts',
    'packages/translator/test/schema-types.test.ts',
    'packages/translator/test/upgrade.test.ts',
    'packages/translator/test/db-commands.test.ts',
    'packages/translator/test/operator.test.ts',
  ],
  'jobs, leases and LISTEN/NOTIFY between processes': [
    'packages/manager/test/jobs.test.ts',
    'packages/manager/test/job-stream-limits.test.ts',
    'packages/manager/test/pg-listener.test.ts',
    'packages/manager/test/scale-out.test.ts',
    'packages/manager/test/crash.test.ts',
    'packages/manager/test/takeover-cleanup.test.ts',
    'packages/manager/test/delete-job.test.ts',
    'packages/manager/test/site-config-sharing.test.ts',
    'packages/manager/test/principal-sharing.test.ts',
    'packages/translator/test/ai-jobs.test.ts',
    'packages/translator/test/ai-job-leases.test.ts',
    'packages/translator/test/cross-process.test.ts',
  ],
  'transactions, locks and concurrent writes': [
    'packages/manager/test/containers-concurrency.test.ts',
    'packages/manager/test/audit-transactions.test.ts',
    'packages/manager/test/failed-create.test.ts',
    'packages/manager/test/last-admin.test.ts',
    'packages/manager/test/identity-reuse.test.ts',
    'packages/manager/test/users-groups.test.ts',
    'packages/translator/test/translation-states.test.ts',
  ],
  'queries that aggregate or search': [
    'packages/manager/test/metrics-sampling.test.ts',
    'packages/manager/test/metrics-backfill.test.ts',
    'packages/translator/test/analytics.test.ts',
    'packages/translator/test/memory.test.ts',
  ],
  'backups and restores': [
    'packages/translator/test/backups.test.ts',
    'packages/translator/test/backup-restore.test.ts',
    'packages/translator/test/backup-team.test.ts',
  ],
};

export const databasePassFiles = (): string[] => Object.values(DATABASE_PASS).flat();
