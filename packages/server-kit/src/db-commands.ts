import { ConfigError } from './config.ts';
import {
  dbBackup,
  dbMigrate,
  DbCommandError,
  dbStatus,
  PENDING_EXIT_CODE,
  type DbTarget,
} from './db-admin.ts';

/** The part of commander's Command the `db` commands are declared with (each service owns its commander). */
export interface CommandBuilder {
  command(name: string): CommandBuilder;
  description(text: string): CommandBuilder;
  argument(name: string, description?: string, defaultValue?: unknown): CommandBuilder;
  option(flags: string, description: string): CommandBuilder;
  action(run: (...args: unknown[]) => void | Promise<void>): CommandBuilder;
}

const print = (line: string) => console.log(line);
/**
 * Runs one command and sets the exit status it resolves to. A failure the operator did not cause (the
 * database unreachable, a failed migration) becomes a one-line DbCommandError naming the command.
 */
const finish = (command: string, run: () => Promise<number>) => async () => {
  try {
    process.exitCode = await run();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DbCommandError) throw error;
    throw new DbCommandError(`db ${command} failed: ${(error as Error).message ?? String(error)}`, {
      cause: error,
    });
  }
};

/** Declares `status`, `migrate` and `backup FILE [--force]` on `db`, a service's `db` command. */
export function declareDbCommands(db: CommandBuilder, target: () => DbTarget): void {
  db.description("the service's database: migrations and backups");
  db.command('status')
    .description(`dialect, database and migrations; exit status ${PENDING_EXIT_CODE} when some are pending`)
    .action(finish('status', () => dbStatus(target(), print)));
  db.command('migrate')
    .description('apply the pending migrations')
    .action(finish('migrate', () => dbMigrate(target(), print)));
  db.command('backup')
    .description('SQLite: copy the database to FILE while it runs; PostgreSQL: print the pg_dump command')
    .argument('<file>', 'where the copy goes')
    .option('--force', 'overwrite FILE when it exists')
    .action(async (...args) => {
      const [file, options] = args as [string, { force?: boolean }];
      await finish('backup', () => dbBackup(target(), file, { force: Boolean(options.force) }, print))();
    });
}
