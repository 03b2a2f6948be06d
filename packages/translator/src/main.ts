import { closeOnSignals, ConfigError } from '@app/server-kit';
import { readTranslatorConfig } from './config.ts';
import { buildTranslator } from './app.ts';

try {
  const config = readTranslatorConfig();
  const translator = await buildTranslator(config);
  const { app, defaultProject } = translator;
  closeOnSignals(app.log, [() => translator.close()]);
  const url = await translator.listen();
  app.log.info(`translator listening on ${url}`);
  console.log(`Translator: ${url.replace('0.0.0.0', 'localhost')}/api`);
  if (defaultProject.created) {
    // The key is a credential: in production it never goes to the log, which is often shipped elsewhere.
    if (config.production) {
      app.log.warn(
        'created the default project; read its API key with GET /api/project from a trusted network',
      );
    } else {
      console.log(`\nTranslator default project created. API key: ${defaultProject.project.api_key}\n`);
    }
  }
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
    process.exit(2);
  }
  throw error;
}
