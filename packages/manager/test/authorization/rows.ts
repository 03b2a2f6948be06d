import { siteInput } from '../fleet-helpers.ts';
import { jobEnds } from '../container-helpers.ts';
import type { ManagerClient } from '../helpers.ts';
import { CALLERS, type Caller, type World } from './callers.ts';

/** The status each caller gets from one route. */
export type Expectation = Record<Caller, number>;

export interface Row {
  /** `METHOD /path` exactly as in the OpenAPI document. */
  route: string;
  expect: Expectation;
  /** The concrete path and body; may make a throwaway record the call then uses up. */
  request(world: World, caller: Caller): Promise<Request> | Request;
  /** Replaces the ordinary call (a caller whose own session the route would end). */
  run?(world: World, caller: Caller): Promise<number>;
}

interface Request {
  path: string;
  body?: unknown;
}

const each = (status: number, overrides: Partial<Expectation> = {}): Expectation => ({
  ...(Object.fromEntries(CALLERS.map((caller) => [caller, status])) as Expectation),
  // A credential that does not authenticate a user is refused everywhere, public routes included.
  pending: 401,
  agentToken: 401,
  ...overrides,
});
const everywhere = (status: number) => ({ ...each(status), pending: status, agentToken: status });
/** Public: anyone, from anywhere. */
const open = (status: number) => each(status);
/** Any active user, by session or API key. */
const signedIn = (status: number) => each(status, { anonymous: 401, local: 401 });
/** Administrators, by session or API key. */
const adminOnly = (status: number) =>
  each(status, { anonymous: 401, local: 401, user: 403, owner: 403, collaborator: 403 });
/** The owner's container: collaborators may look; strangers do not learn it exists. */
const containerRead = (status: number) => signedIn(status);
const containerView = (status: number) => ({ ...signedIn(status), user: 404 });
const containerManage = (status: number) => ({ ...signedIn(status), user: 404, collaborator: 403 });
/** Something of the owner's alone (their API key, their notification, the job they started). */
const ownerAlone = (status: number, admin = 404) => ({
  ...signedIn(404),
  owner: status,
  admin,
  adminKey: admin,
});
/** Agent routes: the gateway itself without credentials, its site's agent token, or an administrator. */
const agentRoute = (status: number) => ({
  ...each(403, { anonymous: 401 }),
  local: status,
  admin: status,
  adminKey: status,
  agentToken: status,
});

const alertRule = () => ({
  name: unique('rule'),
  metric: 'cpuPercent',
  comparison: 'above',
  threshold: 90,
  durationSeconds: 60,
  scope: 'nodes',
});

let serial = 0;
const unique = (prefix: string) => `${prefix}${++serial}`;

const fresh = {
  site: async (world: World) =>
    (await world.setup.post('/sites', siteInput({ name: unique('site') }))).body.data.id,
  node: async (world: World) =>
    (await world.setup.post(`/sites/${world.ids.site}/nodes`, { name: unique('node'), nodeType: 'dummy' }))
      .body.data.id,
  user: async (world: World) =>
    (
      await world.setup.post('/users', {
        uid: unique('temp'),
        givenName: 'Temp',
        sn: 'User',
        mail: `${unique('temp')}@example.test`,
        userPassword: 'correct horse',
        status: 'active',
      })
    ).body.data.uidNumber,
  group: async (world: World) =>
    (await world.setup.post('/groups', { cn: unique('group') })).body.data.gidNumber,
  alertRule: async (world: World) =>
    (await world.setup.post('/alert-rules', alertRule())).body.data.id as number,
  domain: async (world: World) =>
    (await world.setup.post('/external-domains', { name: `${unique('d')}.example.test` })).body.data.id,
  /** A container of the owner's, shared with the collaborator, its create job over. */
  container: async (world: World) => {
    const { containerId, jobId } = (
      await world.setup.post(`/sites/${world.ids.site}/containers`, {
        hostname: unique('tmp'),
        template: 'nginx:latest',
        username: 'olivia',
        collaborators: ['colin'],
      })
    ).body.data;
    await jobEnds(world.setup as ManagerClient, jobId);
    return containerId;
  },
  /** A request of the owner's, pending (an administrator's own would be approved at once). */
  request: async (world: World) =>
    (
      await world.asOwner().post('/resource-requests', {
        siteId: world.ids.site,
        hostname: unique('rr'),
        resourceType: 'cpus',
        value: 64,
      })
    ).body.data.id,
  ownerKey: async (world: World) =>
    (await world.asOwner().post('/apikeys', { description: 'throwaway' })).body.data.id,
};

const fixed =
  (path: string | ((world: World) => string), body?: unknown | ((world: World) => unknown)) =>
  (world: World): Request => ({
    path: typeof path === 'function' ? path(world) : path,
    ...(body === undefined
      ? {}
      : { body: typeof body === 'function' ? (body as (w: World) => unknown)(world) : body }),
  });

const site = (world: World) => `/sites/${world.ids.site}`;
const container = (world: World) => `${site(world)}/containers/${world.ids.container}`;

export const ROWS: Row[] = [
  // Meta
  // The documents are served outside the API's authentication: even a refused credential reads them.
  { route: 'GET /openapi.json', expect: everywhere(200), request: fixed('/openapi.json') },
  { route: 'GET /openapi.yaml', expect: everywhere(200), request: fixed('/openapi.yaml') },
  { route: 'GET /csrf-token', expect: open(200), request: fixed('/csrf-token') },
  { route: 'GET /health', expect: open(200), request: fixed('/health') },
  // Probes, like the documents, answer outside the API's authentication.
  { route: 'GET /livez', expect: everywhere(200), request: fixed('/livez') },
  { route: 'GET /readyz', expect: everywhere(200), request: fixed('/readyz') },
  // Administrators, or a scraper with METRICS_TOKEN (observability.test.ts).
  { route: 'GET /metrics', expect: adminOnly(200), request: fixed('/metrics') },

  // Auth
  { route: 'GET /session', expect: signedIn(200), request: fixed('/session') },
  {
    route: 'POST /auth/login',
    expect: open(200),
    request: fixed('/auth/login', { username: 'ursula', password: 'correct horse' }),
    // Signing in replaces the session it came with: not the matrix's own.
    run: async (world, caller) =>
      caller === 'admin'
        ? (
            await (
              await world.freshAdminSession()
            ).post('/auth/login', { username: 'ursula', password: 'correct horse' })
          ).status
        : -1,
  },
  { route: 'GET /auth/oidc/login', expect: open(404), request: fixed('/auth/oidc/login') },
  {
    route: 'GET /auth/oidc/callback',
    expect: open(404),
    request: fixed('/auth/oidc/callback?code=x&state=y'),
  },
  {
    route: 'POST /auth/logout',
    expect: open(200),
    request: fixed('/auth/logout'),
    // Logging the matrix's own admin session out would end it for every later row.
    run: async (world, caller) =>
      caller === 'admin' ? (await (await world.freshAdminSession()).post('/auth/logout')).status : -1,
  },
  {
    route: 'POST /auth/register',
    expect: open(201),
    request: () => {
      const uid = unique('reg');
      return {
        path: '/auth/register',
        body: {
          uid,
          givenName: 'Reg',
          sn: 'Ister',
          mail: `${uid}@example.test`,
          userPassword: 'correct horse',
        },
      };
    },
  },
  {
    route: 'GET /auth/register/invite/{token}',
    expect: open(404),
    request: fixed('/auth/register/invite/nope'),
  },
  {
    route: 'POST /auth/password-reset/request',
    expect: open(200),
    request: () => ({ path: '/auth/password-reset/request', body: { usernameOrEmail: unique('nobody') } }),
  },
  {
    route: 'GET /auth/password-reset/{token}',
    expect: open(404),
    request: fixed('/auth/password-reset/nope'),
  },
  {
    route: 'POST /auth/password-reset/{token}',
    expect: open(404),
    request: fixed('/auth/password-reset/nope', { password: 'long enough', confirmPassword: 'long enough' }),
  },

  // Users
  { route: 'GET /users', expect: adminOnly(200), request: fixed('/users') },
  { route: 'GET /users/pending/count', expect: adminOnly(200), request: fixed('/users/pending/count') },
  {
    route: 'POST /users',
    expect: adminOnly(201),
    request: () => {
      const uid = unique('made');
      return {
        path: '/users',
        body: {
          uid,
          givenName: 'Made',
          sn: 'User',
          mail: `${uid}@example.test`,
          userPassword: 'correct horse',
        },
      };
    },
  },
  {
    route: 'GET /users/{uidNumber}',
    expect: adminOnly(200),
    request: fixed((w) => `/users/${w.ids.ownerUid}`),
  },
  {
    route: 'PUT /users/{uidNumber}',
    expect: adminOnly(200),
    request: async (world) => ({ path: `/users/${await fresh.user(world)}`, body: { status: 'suspended' } }),
  },
  {
    route: 'DELETE /users/{uidNumber}',
    expect: adminOnly(204),
    request: async (world) => ({ path: `/users/${await fresh.user(world)}` }),
  },
  {
    route: 'POST /users/invite',
    expect: adminOnly(200),
    request: () => ({ path: '/users/invite', body: { email: `${unique('invited')}@example.test` } }),
  },
  {
    route: 'POST /users/email-all',
    expect: adminOnly(200),
    request: fixed('/users/email-all', { subject: 'Hello', message: 'A word to everyone.' }),
  },

  // Groups
  { route: 'GET /groups', expect: adminOnly(200), request: fixed('/groups') },
  {
    route: 'POST /groups',
    expect: adminOnly(201),
    request: () => ({ path: '/groups', body: { cn: unique('g') } }),
  },
  {
    route: 'GET /groups/{gidNumber}',
    expect: adminOnly(200),
    request: fixed((w) => `/groups/${w.ids.group}`),
  },
  {
    route: 'PUT /groups/{gidNumber}',
    expect: adminOnly(200),
    request: fixed((w) => `/groups/${w.ids.group}`, { cn: 'matrix', isAdmin: false }),
  },
  {
    route: 'DELETE /groups/{gidNumber}',
    expect: adminOnly(204),
    request: async (world) => ({ path: `/groups/${await fresh.group(world)}` }),
  },

  // API keys: each caller's own
  { route: 'GET /apikeys', expect: signedIn(200), request: fixed('/apikeys') },
  { route: 'POST /apikeys', expect: signedIn(201), request: fixed('/apikeys', { description: 'row' }) },
  {
    route: 'GET /apikeys/{id}',
    expect: ownerAlone(200),
    request: fixed((w) => `/apikeys/${w.ids.ownerKey}`),
  },
  {
    route: 'DELETE /apikeys/{id}',
    expect: ownerAlone(204),
    request: async (world) => ({ path: `/apikeys/${await fresh.ownerKey(world)}` }),
  },

  // Settings
  { route: 'GET /settings', expect: adminOnly(200), request: fixed('/settings') },
  { route: 'PUT /settings', expect: adminOnly(200), request: fixed('/settings', { bannerMessage: '' }) },

  // Audit log: administrators see everyone's entries, every user their own
  {
    route: 'GET /audit-events',
    expect: adminOnly(200),
    request: fixed('/audit-events?action=container.&limit=5'),
  },
  {
    route: 'GET /audit-events.csv',
    expect: adminOnly(200),
    request: fixed('/audit-events.csv?action=auth.'),
  },
  { route: 'GET /users/me/activity', expect: signedIn(200), request: fixed('/users/me/activity?limit=5') },

  // Sites
  { route: 'GET /sites', expect: signedIn(200), request: fixed('/sites') },
  {
    route: 'POST /sites',
    expect: adminOnly(201),
    request: () => ({ path: '/sites', body: siteInput({ name: unique('s') }) }),
  },
  { route: 'GET /sites/{id}', expect: signedIn(200), request: fixed(site) },
  { route: 'PUT /sites/{id}', expect: adminOnly(200), request: fixed(site, siteInput()) },
  {
    route: 'DELETE /sites/{id}',
    expect: adminOnly(204),
    request: async (world) => ({ path: `/sites/${await fresh.site(world)}` }),
  },

  // Nodes
  { route: 'GET /sites/{siteId}/nodes', expect: signedIn(200), request: fixed((w) => `${site(w)}/nodes`) },
  {
    route: 'POST /sites/{siteId}/nodes',
    expect: adminOnly(201),
    request: (world) => ({ path: `${site(world)}/nodes`, body: { name: unique('n'), nodeType: 'dummy' } }),
  },
  {
    route: 'POST /sites/{siteId}/nodes/test',
    expect: adminOnly(200),
    request: (world) => ({
      path: `${site(world)}/nodes/test`,
      body: { name: unique('n'), nodeType: 'dummy' },
    }),
  },
  {
    route: 'POST /sites/{siteId}/nodes/import',
    expect: adminOnly(502),
    request: fixed((w) => `${site(w)}/nodes/import`, {
      apiUrl: 'https://127.0.0.1:9/api2/json',
      username: 'root@pam',
      password: 'secret',
    }),
  },
  {
    route: 'GET /sites/{siteId}/nodes/{id}',
    expect: signedIn(200),
    request: fixed((w) => `${site(w)}/nodes/${w.ids.node}`),
  },
  {
    route: 'PUT /sites/{siteId}/nodes/{id}',
    expect: adminOnly(200),
    request: fixed((w) => `${site(w)}/nodes/${w.ids.node}`, { name: 'matrix-node', nodeType: 'dummy' }),
  },
  {
    route: 'DELETE /sites/{siteId}/nodes/{id}',
    expect: adminOnly(204),
    request: async (world) => ({ path: `${site(world)}/nodes/${await fresh.node(world)}` }),
  },
  {
    route: 'GET /sites/{siteId}/nodes/{id}/storages',
    expect: signedIn(200),
    request: fixed((w) => `${site(w)}/nodes/${w.ids.node}/storages`),
  },
  {
    route: 'GET /sites/{siteId}/nodes/{id}/stats',
    expect: signedIn(200),
    request: fixed((w) => `${site(w)}/nodes/${w.ids.node}/stats`),
  },
  {
    route: 'GET /sites/{siteId}/nodes/{id}/metrics',
    expect: signedIn(200),
    request: fixed((w) => `${site(w)}/nodes/${w.ids.node}/metrics?range=1h`),
  },
  {
    route: 'GET /sites/{siteId}/metrics/top',
    expect: adminOnly(200),
    request: fixed((w) => `${site(w)}/metrics/top?sort=memory`),
  },

  // Jobs: the creator's (the owner started the container's create job) and administrators'
  { route: 'GET /jobs/{id}', expect: ownerAlone(200, 200), request: fixed((w) => `/jobs/${w.ids.job}`) },
  {
    route: 'GET /jobs/{id}/status',
    expect: ownerAlone(200, 200),
    request: fixed((w) => `/jobs/${w.ids.job}/status`),
  },
  {
    route: 'GET /jobs/{id}/stream',
    expect: ownerAlone(200, 200),
    request: fixed((w) => `/jobs/${w.ids.job}/stream`),
  },
  {
    route: 'POST /jobs/{id}/cancel',
    expect: ownerAlone(200, 200),
    request: async (world) => ({ path: `/jobs/${await world.pendingJobOfOwner()}/cancel` }),
  },

  // Containers
  {
    route: 'GET /sites/{siteId}/containers',
    expect: containerRead(200),
    request: fixed((w) => `${site(w)}/containers`),
  },
  {
    route: 'POST /sites/{siteId}/containers',
    expect: signedIn(201),
    request: (world) => ({
      path: `${site(world)}/containers`,
      body: { hostname: unique('made'), template: 'nginx:latest' },
    }),
  },
  {
    route: 'GET /sites/{siteId}/containers/new',
    expect: signedIn(200),
    request: fixed((w) => `${site(w)}/containers/new`),
  },
  {
    route: 'GET /sites/{siteId}/containers/metadata',
    // The image's registry is closed in tests: signed-in callers reach the lookup, which fails.
    expect: signedIn(502),
    request: fixed((w) => `${site(w)}/containers/metadata?image=nginx:latest`),
  },
  { route: 'GET /sites/{siteId}/containers/{id}', expect: containerView(200), request: fixed(container) },
  {
    route: 'PUT /sites/{siteId}/containers/{id}',
    expect: containerManage(200),
    request: fixed(container, { restart: true }),
  },
  {
    route: 'DELETE /sites/{siteId}/containers/{id}',
    expect: containerManage(200),
    request: async (world) => ({ path: `${site(world)}/containers/${await fresh.container(world)}` }),
  },
  {
    route: 'GET /sites/{siteId}/containers/{id}/jobs',
    expect: containerView(200),
    request: fixed((w) => `${container(w)}/jobs`),
  },
  {
    route: 'GET /sites/{siteId}/containers/{id}/terminal',
    // Without the WebSocket upgrade: those who may hold a shell learn they must upgrade.
    expect: containerManage(426),
    request: fixed((w) => `${container(w)}/terminal`),
  },
  {
    route: 'GET /sites/{siteId}/containers/{id}/metrics',
    expect: containerView(200),
    request: fixed((w) => `${container(w)}/metrics?range=7d`),
  },
  {
    route: 'GET /sites/{siteId}/containers/{id}/logs',
    expect: containerView(200),
    request: fixed((w) => `${container(w)}/logs?tail=5`),
  },
  {
    route: 'GET /sites/{siteId}/containers/{id}/logs/download',
    expect: containerView(200),
    request: fixed((w) => `${container(w)}/logs/download?tail=5`),
  },
  {
    route: 'GET /sites/{siteId}/containers/{id}/logs/stream',
    expect: containerView(200),
    request: fixed((w) => `${container(w)}/logs/stream?tail=5`),
  },
  {
    route: 'POST /sites/{siteId}/containers/{id}/retry',
    // Its create succeeded: those who may manage it reach the state check, which refuses.
    expect: containerManage(409),
    request: fixed((w) => `${container(w)}/retry`),
  },
  // Each caller its own container: one start or stop at a time per container.
  ...(['start', 'stop'] as const).map((action) => ({
    route: `POST /sites/{siteId}/containers/{id}/${action}`,
    expect: containerManage(202),
    request: async (world: World) => ({
      path: `${site(world)}/containers/${await fresh.container(world)}/${action}`,
    }),
  })),
  {
    route: 'POST /sites/{siteId}/containers/{id}/exec',
    // Owner and administrators: a collaborator never runs a command in it.
    expect: containerManage(202),
    request: fixed((w) => `${container(w)}/exec`, { command: ['true'] }),
  },
  {
    route: 'GET /sites/{siteId}/containers/{id}/collaborators',
    expect: containerView(200),
    request: fixed((w) => `${container(w)}/collaborators`),
  },
  {
    route: 'POST /sites/{siteId}/containers/{id}/collaborators',
    expect: containerManage(201),
    // Sharing with the administrator changes no one else's view of the container.
    request: fixed((w) => `${container(w)}/collaborators`, { username: 'admin' }),
  },
  {
    route: 'DELETE /sites/{siteId}/containers/{id}/collaborators/{username}',
    expect: containerManage(200),
    request: async (world) => {
      await world.setup.post(`${container(world)}/collaborators`, { username: 'admin' });
      return { path: `${container(world)}/collaborators/admin` };
    },
  },

  // Resource requests
  { route: 'GET /resource-requests', expect: signedIn(200), request: fixed('/resource-requests') },
  {
    route: 'POST /resource-requests',
    expect: signedIn(201),
    request: (world) => ({
      path: '/resource-requests',
      body: { siteId: world.ids.site, hostname: unique('want'), resourceType: 'memory', value: 16384 },
    }),
  },
  {
    route: 'GET /resource-requests/count',
    expect: signedIn(200),
    request: fixed('/resource-requests/count'),
  },
  {
    route: 'GET /resource-requests/effective/{siteId}/{hostname}/{username}',
    // Anyone's own, administrators' anyone's: here the owner's.
    expect: { ...signedIn(200), user: 403, collaborator: 403 },
    request: fixed((w) => `/resource-requests/effective/${w.ids.site}/matrix-web/olivia`),
  },
  {
    route: 'PUT /resource-requests/{id}/approve',
    expect: adminOnly(200),
    request: async (world) => ({
      path: `/resource-requests/${await fresh.request(world)}/approve`,
      body: {},
    }),
  },
  {
    route: 'PUT /resource-requests/{id}/deny',
    expect: adminOnly(200),
    request: async (world) => ({ path: `/resource-requests/${await fresh.request(world)}/deny`, body: {} }),
  },

  // Site agent tokens
  {
    route: 'GET /sites/{siteId}/agent-tokens',
    expect: adminOnly(200),
    request: fixed((w) => `${site(w)}/agent-tokens`),
  },
  {
    route: 'POST /sites/{siteId}/agent-tokens',
    expect: adminOnly(201),
    request: fixed((w) => `${site(w)}/agent-tokens`, { description: 'row' }),
  },
  {
    route: 'DELETE /sites/{siteId}/agent-tokens/{id}',
    expect: adminOnly(204),
    request: async (world) => {
      const id = (await world.setup.post(`${site(world)}/agent-tokens`, {})).body.data.id;
      return { path: `${site(world)}/agent-tokens/${id}` };
    },
  },

  // Volume folders kept from deleted containers
  {
    route: 'GET /sites/{siteId}/kept-volumes',
    expect: adminOnly(200),
    request: fixed((w) => `${site(w)}/kept-volumes`),
  },
  {
    route: 'DELETE /sites/{siteId}/kept-volumes/{id}',
    expect: adminOnly(202),
    request: async (world) => {
      const hostname = unique('kept');
      const [row] = await world.test.manager.database.db
        .insertInto('kept_volumes')
        .values({
          site_id: world.ids.site,
          hostname,
          name: 'data',
          host_path: `/mnt/pve/local-lvm/${world.ids.site}/2000/${hostname}/data`,
          mount_path: '/data',
          kept_at: new Date().toISOString(),
          status: 'kept',
          status_message: null,
        })
        .returning('id')
        .execute();
      return { path: `${site(world)}/kept-volumes/${row!.id}` };
    },
  },

  // Agents and traffic reports
  {
    route: 'POST /agents',
    expect: agentRoute(200),
    request: fixed('/agents', (w: World) => ({ siteId: w.ids.site, hostname: 'gw-matrix' })),
  },
  { route: 'GET /agents', expect: adminOnly(200), request: fixed('/agents') },
  {
    route: 'PUT /agents/acme-challenges',
    // Past the check, the world's domain has no DNS provider key: 409.
    expect: agentRoute(409),
    request: fixed('/agents/acme-challenges', (w: World) => ({
      siteId: w.ids.site,
      domain: 'apps.example.test',
      values: [],
    })),
  },
  {
    route: 'POST /services/{id}/last-access',
    expect: agentRoute(204),
    request: fixed((w) => `/services/${w.ids.httpService}/last-access`),
  },

  // Notifications
  {
    route: 'POST /notifications',
    // Node-side tools post with an administrator's API key; a browser session may not.
    expect: { ...adminOnly(403), anonymous: 401, local: 401, adminKey: 201 },
    request: fixed('/notifications', { source: 'row', severity: 'info', message: 'hi', owner: 'olivia' }),
  },
  { route: 'GET /notifications', expect: signedIn(200), request: fixed('/notifications') },
  { route: 'POST /notifications/all/ack', expect: signedIn(200), request: fixed('/notifications/all/ack') },
  {
    route: 'POST /notifications/{id}/ack',
    expect: ownerAlone(200),
    request: fixed((w) => `/notifications/${w.ids.notification}/ack`),
  },

  // External domains
  { route: 'GET /external-domains', expect: adminOnly(200), request: fixed('/external-domains') },
  {
    route: 'POST /external-domains',
    expect: adminOnly(201),
    request: () => ({ path: '/external-domains', body: { name: `${unique('x')}.example.test` } }),
  },
  {
    route: 'GET /external-domains/{id}',
    expect: adminOnly(200),
    request: fixed((w) => `/external-domains/${w.ids.domain}`),
  },
  {
    route: 'GET /external-domains/{id}/certificates',
    expect: adminOnly(200),
    request: fixed((w) => `/external-domains/${w.ids.domain}/certificates`),
  },
  {
    route: 'PUT /external-domains/{id}',
    expect: adminOnly(200),
    request: fixed(
      (w) => `/external-domains/${w.ids.domain}`,
      (w: World) => ({
        name: 'apps.example.test',
        siteId: w.ids.site,
      }),
    ),
  },
  {
    route: 'DELETE /external-domains/{id}',
    expect: adminOnly(204),
    request: async (world) => ({ path: `/external-domains/${await fresh.domain(world)}` }),
  },

  // Alert rules
  { route: 'GET /alert-rules', expect: adminOnly(200), request: fixed('/alert-rules') },
  {
    route: 'POST /alert-rules',
    expect: adminOnly(201),
    request: () => ({ path: '/alert-rules', body: alertRule() }),
  },
  {
    route: 'GET /alert-rules/{id}',
    expect: adminOnly(200),
    request: async (world) => ({ path: `/alert-rules/${await fresh.alertRule(world)}` }),
  },
  {
    route: 'PUT /alert-rules/{id}',
    expect: adminOnly(200),
    request: async (world) => ({ path: `/alert-rules/${await fresh.alertRule(world)}`, body: alertRule() }),
  },
  {
    route: 'DELETE /alert-rules/{id}',
    expect: adminOnly(204),
    request: async (world) => ({ path: `/alert-rules/${await fresh.alertRule(world)}` }),
  },
];
