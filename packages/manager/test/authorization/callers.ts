import { startMailSink } from '../mail-sink.ts';
import { adminClient, userClient, type ManagerClient, type TestManager } from '../helpers.ts';
import { siteInput } from '../fleet-helpers.ts';
import { createAndWait } from '../container-helpers.ts';

/** Every kind of caller of the manager's API, as the authorization matrix names them. */
export const CALLERS = [
  /** On the manager's own host (loopback, no forwarding header), without credentials. */
  'local',
  /** Anywhere else, without credentials. */
  'anonymous',
  /** The API key of a user set back to pending. */
  'pending',
  /** An active non-administrator with nothing shared with them. */
  'user',
  /** An active non-administrator who owns the container (and started its job, and has a notification). */
  'owner',
  /** An active non-administrator the container is shared with. */
  'collaborator',
  /** An administrator's browser session, with its CSRF token. */
  'admin',
  /** An administrator's API key. */
  'adminKey',
  /** The site agent token of the matrix's site. */
  'agentToken',
] as const;
export type Caller = (typeof CALLERS)[number];

/** The records every row can address: made once, by the callers they belong to. */
export interface World {
  test: TestManager;
  adminSession: ManagerClient;
  /** Sends a request as `caller` and returns the status (nothing follows redirects). */
  call(caller: Caller, method: string, path: string, body?: unknown): Promise<number>;
  /** A client acting as the admin through an API key, for setting up throwaway records. */
  setup: ManagerClient;
  /** A client acting as the owner through their API key. */
  asOwner(): ManagerClient;
  /** Another signed-in session of the administrator. */
  freshAdminSession(): Promise<ManagerClient>;
  /** A job of the owner's that no worker runs, so it can still be cancelled. */
  pendingJobOfOwner(): Promise<number>;
  ids: {
    site: number;
    node: number;
    domain: number;
    container: number;
    job: number;
    httpService: number;
    notification: number;
    request: number;
    group: number;
    ownerKey: string;
    ownerUid: number;
  };
  close(): Promise<void>;
}

const withKey = (test: TestManager, key: string) => {
  const client = test.client();
  client.defaultHeaders.authorization = `Bearer ${key}`;
  return client;
};

const keyOf = async (client: ManagerClient) =>
  (await client.post('/apikeys', { description: 'matrix' })).body.data as { id: string; key: string };

export async function buildWorld(test: TestManager): Promise<World> {
  const sink = await startMailSink();
  const adminSession = await adminClient(test);
  const adminKey = (await keyOf(adminSession)).key;
  const setup = withKey(test, adminKey);
  await setup.put('/settings', { smtpUrl: sink.url, smtpNoreplyAddress: 'noreply@example.test' });
  const sessions = {
    owner: await userClient(test, adminSession, 'olivia'),
    collaborator: await userClient(test, adminSession, 'colin'),
    user: await userClient(test, adminSession, 'ursula'),
    pending: await userClient(test, adminSession, 'pete'),
  };
  const ownerKey = await keyOf(sessions.owner);
  const keys: Record<Caller, string | undefined> = {
    local: undefined,
    anonymous: undefined,
    pending: (await keyOf(sessions.pending)).key,
    user: (await keyOf(sessions.user)).key,
    owner: ownerKey.key,
    collaborator: (await keyOf(sessions.collaborator)).key,
    admin: undefined,
    adminKey,
    agentToken: undefined,
  };
  const users = (await setup.get('/users')).body.data as { uid: string; uidNumber: number }[];
  const uidOf = (uid: string) => users.find((entry) => entry.uid === uid)!.uidNumber;
  await setup.put(`/users/${uidOf('pete')}`, { status: 'pending' });

  const site = (await setup.post('/sites', siteInput())).body.data.id as number;
  const node = (await setup.post(`/sites/${site}/nodes`, { name: 'matrix-node', nodeType: 'dummy' })).body
    .data.id as number;
  const domain = (await setup.post('/external-domains', { name: 'apps.example.test', siteId: site })).body
    .data.id as number;
  const { container } = await createAndWait(withKey(test, ownerKey.key) as ManagerClient, site, {
    hostname: 'matrix-web',
    template: 'nginx:latest',
    collaborators: ['colin'],
    services: {
      web: { type: 'http', internalPort: 80, externalHostname: 'matrix-web', externalDomainId: domain },
      ssh: { type: 'tcp', internalPort: 22 },
    },
  });
  const notification = (
    await setup.post('/notifications', {
      source: 'matrix',
      severity: 'info',
      message: 'hello',
      owner: 'olivia',
    })
  ).body.data.id as number;
  const request = (
    await withKey(test, ownerKey.key).post('/resource-requests', {
      siteId: site,
      hostname: 'matrix-web',
      resourceType: 'memory',
      value: 16384,
    })
  ).body.data.id as number;
  const group = (await setup.post('/groups', { cn: 'matrix', isAdmin: false })).body.data.gidNumber as number;
  keys.agentToken = (
    await setup.post(`/sites/${site}/agent-tokens`, { description: 'matrix' })
  ).body.data.token;

  const csrf = adminSession.defaultHeaders['x-csrf-token']!;
  const cookie = `connect.sid=${adminSession.cookie('connect.sid')}`;
  // Every caller but `local` comes through a proxy we do not trust, i.e. from another host: on the
  // manager's own host the agent routes trust anyone (as the spec says).
  const remote = { 'x-forwarded-for': '203.0.113.7' };
  const headersOf = (caller: Caller): Record<string, string> => {
    if (caller === 'local') return {};
    if (caller === 'admin') return { ...remote, cookie, 'x-csrf-token': csrf };
    const key = keys[caller];
    return key ? { ...remote, authorization: `Bearer ${key}` } : remote;
  };

  return {
    test,
    adminSession,
    setup,
    asOwner: () => withKey(test, ownerKey.key) as ManagerClient,
    async freshAdminSession() {
      const client = test.client();
      await client.login('admin');
      return client;
    },
    async pendingJobOfOwner() {
      return (await test.manager.services.jobs.enqueue('nobody.handles.this', {}, uidOf('olivia'))).id;
    },
    ids: {
      site,
      node,
      domain,
      container: container.id,
      job: container.creationJobId,
      httpService: container.services.find((service: { type: string }) => service.type === 'http').id,
      notification,
      request,
      group,
      ownerKey: ownerKey.id,
      ownerUid: uidOf('olivia'),
    },
    async call(caller, method, path, body) {
      const response = await fetch(`${test.baseUrl}/api/v1${path}`, {
        method,
        redirect: 'manual',
        headers: {
          ...headersOf(caller),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      await response.body?.cancel();
      return response.status;
    },
    close: () => sink.close(),
  };
}
