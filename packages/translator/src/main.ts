import { Command } from 'commander';
import { ConfigError, DbCommandError, declareDbCommands, PendingMigrationsError } from '@app/server-kit';
import { readTranslatorConfig } from './config.ts';
import { serve } from './serve.ts';
import {
  createProject,
  inviteOwner,
  listProjects,
  OperatorError,
  restoreBackup,
  showKeys,
} from './operator.ts';
import { RestoreError } from './backups/restore.ts';
import { translatorDbTarget } from './db/store.ts';

// `translator` (or `translator serve`) starts the server; the other commands are the operator's, run on the
// same settings (TRANSLATOR_DATABASE_URL, DATA_DIR, SECRET_KEY) while servers run or not.
const print = (line: string) => console.log(line);
const program = new Command('translator').description('Translation management service').showHelpAfterError();

program
  .command('serve', { isDefault: true })
  .description('start the HTTP API and the workers (the default)')
  .action(() => serve(readTranslatorConfig()));

const project = program.command('project').description('projects of this deployment (one API key each)');
project
  .command('create')
  .description('create a project and print its API key once')
  .requiredOption('--name <name>', 'project name')
  .action((options: { name: string }) => createProject(readTranslatorConfig(), options.name, print));
project
  .command('key')
  .description('print the API key and the page key of one project')
  .argument('<id>', 'the project id (see project list)')
  .action((id: string) => showKeys(readTranslatorConfig(), id, print));
project
  .command('invite')
  .description('invite someone to the dashboard as an owner of one project; prints the invitation link')
  .argument('<id>', 'the project id (see project list)')
  .requiredOption('--email <address>', 'their e-mail address')
  .action((id: string, options: { email: string }) =>
    inviteOwner(readTranslatorConfig(), id, options.email, print),
  );
project
  .command('list')
  .description('list the projects: ids, names, creation times (no keys)')
  .action(() => listProjects(readTranslatorConfig(), print));

program
  .command('backup')
  .description('backup files')
  .command('restore')
  .description('load a backup file into the database under its project id')
  .argument('<file>', 'a translator-p<id>-….sqlite file')
  .option('--replace', 'overwrite the live project with that id and all its data')
  .action((file: string, options: { replace?: boolean }) =>
    restoreBackup(readTranslatorConfig(), file, { replace: Boolean(options.replace) }, print),
  );

declareDbCommands(program.command('db'), () => translatorDbTarget(readTranslatorConfig()));

try {
  await program.parseAsync();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
    process.exit(2);
  }
  if (
    error instanceof OperatorError ||
    error instanceof RestoreError ||
    error instanceof DbCommandError ||
    error instanceof PendingMigrationsError
  ) {
    console.error(`translator: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
