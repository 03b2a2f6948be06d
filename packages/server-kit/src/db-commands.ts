import { dbBackup, dbMigrate, dbStatus, PENDING_EXIT_CODE, type DbTarget } from './db-admin.ts';

/** The part of commander's Command the `db` commands are declared with (each service owns its commander). */
export interface CommandBuilder {
  command(name: string): CommandBuilder;
  description(text: string): CommandBuilder;
  argument(name: string, description?: string, defaultValue?: unknown): CommandBuilder;
  option(flags: string, description: string): CommandBuilder;
  action(run: (...args: unknown[]) => void | Promise<void>): CommandBuilder;
}

const print = (line: string) => console.log(line);
const finish = (code: number) => {
  process.exitCode = code;
};

/** Declares `status`, `migrate` and `backup FILE [--force]` on `db`, a service's `db` command. */
export function declareDbCommands(db: CommandBuilder, target: () => DbTarget): void {
  db.description("the service's database: migrations and backups");
  db.command('status')
    .description(`dialect, database and migrations; exit status ${PENDING_EXIT_CODE} when some are pending`)
    .action(async () => finish(await dbStatus(target(), print)));
  db.command('migrate')
    .description('apply the pending migrations')
    .action(async () => finish(await dbMigrate(target(), print)));
  db.command('backup')
    .description('SQLite: copy the database to FILE while it runs; PostgreSQL: print the pg_dump command')
    .argument('<file>', 'where the copy goes')
    .option('--force', 'overwrite FILE when it exists')
    .action(async (...args) => {
      const [file, options] = args as [string, { force?: boolean }];
      finish(await dbBackup(target(), file, { force: Boolean(options.force) }, print));
    });
}
