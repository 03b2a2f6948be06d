import { closeOnSignals, ConfigError } from '@app/server-kit';
import { readManagerConfig } from './config.ts';
import { buildManager } from './app.ts';

async function main() {
  const config = readManagerConfig();
  const manager = await buildManager(config);
  closeOnSignals(manager.app.log, [() => manager.close()]);
  await manager.app.listen({ port: config.port, host: config.host });
  manager.app.log.info(`manager ready at ${config.publicUrl} (API under /api/v1)`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`manager: configuration error: ${error.message}`);
  } else {
    console.error('manager: failed to start:', error);
  }
  process.exit(1);
});
