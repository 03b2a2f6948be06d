import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { closeOnSignals, packageDir } from '@app/server-kit';
import type { TranslatorConfig } from './config.ts';
import { buildTranslator } from './app.ts';

/** Starts the HTTP API (with the dashboard when built) and the workers; prints the URLs. */
export async function serve(config: TranslatorConfig): Promise<void> {
  // The dashboard build (packages/translator-web/dist) is served at `/` unless TRANSLATOR_STATIC_DIR says otherwise.
  const dashboard = resolve(packageDir(import.meta.url), '../translator-web/dist');
  const staticDir = config.staticDir ?? (existsSync(`${dashboard}/index.html`) ? dashboard : undefined);
  const translator = await buildTranslator(config, { staticDir });
  const { app, defaultProject } = translator;
  closeOnSignals(app.log, [() => translator.close()]);
  const url = await translator.listen();
  app.log.info(`translator listening on ${url}`);
  const base = url.replace('0.0.0.0', 'localhost');
  console.log(`Translator: ${base}/api`);
  if (staticDir) console.log(`Translator dashboard: ${base}/`);
  else
    console.log(
      'Translator dashboard not built: run `npm run build -w packages/translator-web` (`npm start` builds it).',
    );
  if (defaultProject.created) {
    // The key is a credential: in production it never goes to the log, which is often shipped elsewhere.
    if (config.production) {
      app.log.warn(
        `created the default project; print its API key with \`npm run translator -- project key ${defaultProject.project.id}\``,
      );
    } else {
      const { api_key, page_key } = defaultProject.project;
      console.log(`\nTranslator default project created. API key: ${api_key}`);
      console.log(`Page key (for your pages' script tag; pages on this machine may use it): ${page_key}\n`);
    }
  }
}
