import { TestClient } from '@app/server-kit/testing';
import { dbCommandsSuite } from '@app/server-kit/testing/db-commands-suite';
import { translatorMigrations } from '../migrations/index.ts';

/** i in letters (a, b, …, ba, …): digits would be taken for a variable, making every phrase the same. */
const letters = (i: number): string =>
  (i >= 26 ? letters(Math.floor(i / 26)) : '') + String.fromCharCode(97 + (i % 26));

// `translator db status|migrate|backup` and MIGRATE_ON_START on the real CLI; rows written: phrases.
dbCommandsSuite({
  command: 'translator',
  main: new URL('../src/main.ts', import.meta.url).pathname,
  migrations: Object.keys(translatorMigrations('sqlite')),
  readyText: 'Translator: http',
  table: 'phrases',
  async prepareWrite(baseUrl, service) {
    await service.waitFor('Page key');
    const key = /API key: (\S+)/.exec(service.output())?.[1];
    if (!key) throw new Error(`no API key in the output:\n${service.output()}`);
    const client = new TestClient(`${baseUrl}/api`);
    client.defaultHeaders['x-api-key'] = key;
    return async (i) => {
      const sent = await client.post('/textnodes', { keys: [{ key: `Phrase ${letters(i)}` }] });
      if (sent.status !== 200) throw new Error(`POST /textnodes: ${sent.status} ${sent.text}`);
    };
  },
});
