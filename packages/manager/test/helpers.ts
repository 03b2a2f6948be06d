import { envReader } from '@app/server-kit';
import { createTestDatabase, TestClient, type TestDatabase } from '@app/server-kit/testing';
import { readManagerConfig, type ManagerConfig } from '../src/config.ts';
import { buildManager, type BuildOptions, type ManagerApp } from '../src/app.ts';

export interface TestManager {
  manager: ManagerApp;
  config: ManagerConfig;
  baseUrl: string;
  /** PostgreSQL schema of its database (undefined on SQLite). */
  schema: string | undefined;
  /** A fresh client (own cookie jar) for /api/v1. */
  client(): ManagerClient;
  close(): Promise<void>;
}

export { freePort } from '@app/server-kit/testing';

/** The real manager on a loopback port with a database of its own (made here unless given). */
export async function startManager(
  env: Record<string, string> = {},
  options: BuildOptions = {},
  given?: TestDatabase,
): Promise<TestManager> {
  const database = given ?? (await createTestDatabase());
  const config = readManagerConfig(
    envReader({
      DATA_DIR: database.dataDir,
      MANAGER_DATABASE_URL: database.url,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_FAILURES: '100000',
      MANAGER_PORT: '0',
      // Creating a container asks the image's registry for its volumes: never the real Docker Hub in
      // tests (a closed loopback port answers at once; tests that need a registry run the fake).
      REGISTRY_MIRROR: 'http://127.0.0.1:9',
      ...env,
    }),
  );
  const manager = await buildManager(config, {
    ...options,
    ...(database.schema ? { schema: database.schema } : {}),
  });
  await manager.app.listen({ port: config.port, host: '127.0.0.1' });
  const address = manager.app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    manager,
    config,
    baseUrl,
    schema: database.schema,
    client: () => new ManagerClient(`${baseUrl}/api/v1`),
    async close() {
      await manager.close();
      await database.drop();
    },
  };
}

/**
 * Another manager on the same database, as a second process would be: its own services, caches and
 * LISTEN connection (not listening for HTTP). Close it before the first.
 */
export function startPeer(test: TestManager, options: BuildOptions = {}): Promise<ManagerApp> {
  return buildManager(test.config, { ...options, ...(test.schema ? { schema: test.schema } : {}) });
}

export interface NewUser {
  uid: string;
  password?: string;
  mail?: string;
}

/** A browser-like client: after login it carries the session's CSRF token on every request. */
export class ManagerClient extends TestClient {
  async refreshCsrf(): Promise<string> {
    const response = await this.get('/csrf-token');
    const token = response.body.data.csrfToken as string;
    this.defaultHeaders['x-csrf-token'] = token;
    return token;
  }

  async register(user: NewUser) {
    return this.post('/auth/register', {
      uid: user.uid,
      givenName: user.uid[0]!.toUpperCase() + user.uid.slice(1),
      sn: 'Tester',
      mail: user.mail ?? `${user.uid}@example.test`,
      userPassword: user.password ?? 'correct horse',
    });
  }

  async login(uid: string, password = 'correct horse') {
    const response = await this.post('/auth/login', { username: uid, password });
    if (response.status === 200) await this.refreshCsrf();
    return response;
  }

  /** A client that authenticates with this API key instead of a session. */
  static withKey(baseUrl: string, key: string): TestClient {
    const client = new TestClient(baseUrl);
    client.defaultHeaders.authorization = `Bearer ${key}`;
    return client;
  }
}

/** The uidNumber of the user named `uid` (jobs and other records are keyed on it). */
export async function uidNumberOf(test: TestManager, uid: string): Promise<number> {
  const user = await test.manager.services.users.repo.findByUid(uid);
  if (!user) throw new Error(`no user ${uid}`);
  return user.uid_number;
}

/** Registers the first user (an administrator) and logs them in. */
export async function adminClient(test: TestManager, uid = 'admin'): Promise<ManagerClient> {
  const client = test.client();
  const registered = await client.register({ uid });
  if (registered.status !== 201) throw new Error(`register failed: ${registered.text}`);
  await client.login(uid);
  return client;
}

/** Creates an active, non-admin user through the admin API and logs them in. */
export async function userClient(
  test: TestManager,
  admin: ManagerClient,
  uid: string,
): Promise<ManagerClient> {
  const created = await admin.post('/users', {
    uid,
    givenName: uid,
    sn: 'User',
    mail: `${uid}@example.test`,
    userPassword: 'correct horse',
    status: 'active',
    groupIds: [2000],
  });
  if (created.status !== 201) throw new Error(`create user failed: ${created.text}`);
  const client = test.client();
  await client.login(uid);
  return client;
}
