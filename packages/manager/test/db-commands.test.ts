import { dbCommandsSuite } from '@app/server-kit/testing/db-commands-suite';
import { managerMigrations } from '../migrations/index.ts';
import { ManagerClient } from './helpers.ts';

// `manager db status|migrate|backup` and MIGRATE_ON_START on the real CLI; rows written: API keys.
dbCommandsSuite({
  command: 'manager',
  main: new URL('../src/main.ts', import.meta.url).pathname,
  migrations: Object.keys(managerMigrations('sqlite')),
  readyText: 'manager ready at',
  table: 'api_keys',
  async prepareWrite(baseUrl) {
    const client = new ManagerClient(`${baseUrl}/api/v1`);
    const registered = await client.register({ uid: 'admin' });
    if (registered.status !== 201) throw new Error(`register: ${registered.text}`);
    if ((await client.login('admin')).status !== 200) throw new Error('login failed');
    return async (i) => {
      const created = await client.post('/apikeys', { description: `key ${i}` });
      if (created.status !== 201) throw new Error(`POST /apikeys: ${created.status} ${created.text}`);
    };
  },
});
