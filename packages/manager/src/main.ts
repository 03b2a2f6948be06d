import { Command, Option } from 'commander';
import {
  closeOnSignals,
  ConfigError,
  DbCommandError,
  declareDbCommands,
  PendingMigrationsError,
} from '@app/server-kit';
import { readManagerConfig } from './config.ts';
import { buildManager } from './app.ts';
import { DEMO_DOMAIN, seedDemo } from './demo/seed.ts';
import type { ProcessRole } from './fleet.ts';
import { managerDbTarget } from './db/store.ts';

async function serve(role: ProcessRole) {
  const config = readManagerConfig();
  const manager = await buildManager(config, { role });
  closeOnSignals(manager.app.log, [() => manager.close()]);
  if (await seedDemo(manager.services, config.production)) {
    manager.app.log.info(
      `seeded a demo site with one simulated node (demo-node) and the external domain ${DEMO_DOMAIN}`,
    );
  }
  if (role === 'worker') {
    manager.app.log.info('manager worker running (no HTTP)');
    return;
  }
  await manager.app.listen({ port: config.port, host: config.host });
  manager.app.log.info(`manager ready at ${config.publicUrl} (API under /api/v1, role ${role})`);
  if ((await manager.services.users.repo.countUsers()) === 0) {
    manager.app.log.info(
      `no account yet: register at ${config.publicUrl}/register — the first account becomes the administrator`,
    );
  }
}

// `manager [--role …]` serves; `manager db …` are the operator's database commands.
const program = new Command('manager')
  .addOption(
    new Option('--role <role>', 'api serves HTTP, worker runs jobs, all does both')
      .choices(['api', 'worker', 'all'])
      .default('all'),
  )
  .showHelpAfterError()
  .action((options: { role: ProcessRole }) => serve(options.role));
declareDbCommands(program.command('db'), () => managerDbTarget(readManagerConfig()));

program.parseAsync().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`manager: configuration error: ${error.message}`);
  } else if (error instanceof DbCommandError || error instanceof PendingMigrationsError) {
    console.error(`manager: ${error.message}`);
  } else {
    console.error('manager: failed to start:', error);
  }
  process.exit(1);
});
