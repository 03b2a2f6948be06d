import { ProxmoxFake } from '@app/fakes';
import type { BuildOptions } from '../src/app.ts';
import { startManager, type ManagerClient, type TestManager } from './helpers.ts';

/** Fast job settings for tests: quick dummy output, short leases, short shutdown grace. */
export const FAST_JOBS = {
  DUMMY_STEP_MS: '5',
  JOB_POLL_MS: '100',
  JOB_SHUTDOWN_GRACE_MS: '200',
  NODE_TIMEOUT_MS: '1500',
  NODE_STATUS_CACHE_MS: '0',
};

export const startFleetManager = (
  env: Record<string, string> = {},
  options: BuildOptions = {},
): Promise<TestManager> => startManager({ ...FAST_JOBS, ...env }, options);

export const siteInput = (overrides: Record<string, unknown> = {}) => ({
  name: 'Main',
  internalDomain: 'main.internal',
  dhcpRange: '10.0.0.100,10.0.0.200',
  subnetMask: '255.255.255.0',
  gateway: '10.0.0.1',
  dnsForwarders: '1.1.1.1,8.8.8.8',
  externalIp: '203.0.113.10',
  ...overrides,
});

/**
 * A site (`site` overrides its fields) with one dummy node at `nodeAddress`, and the external domain
 * `apps.example.test` on it (`domain` adds fields); their ids.
 */
export async function siteWithDomain(
  admin: ManagerClient,
  {
    site = {},
    nodeAddress = '10.0.0.3',
    domain = {},
  }: {
    site?: Record<string, unknown>;
    nodeAddress?: string;
    domain?: Record<string, unknown>;
  } = {},
): Promise<{ siteId: number; domainId: number }> {
  const siteId: number = (await admin.post('/sites', siteInput(site))).body.data.id;
  await admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy', ipv4Address: nodeAddress });
  const domainId: number = (
    await admin.post('/external-domains', { name: 'apps.example.test', siteId, ...domain })
  ).body.data.id;
  return { siteId, domainId };
}

/** A `sites` row as the database holds it, for tests that write rows directly. */
export const siteRow = (name: string, at: string) => ({
  name,
  internal_domain: `${name.toLowerCase()}.internal`,
  dhcp_range: '10.0.0.100,10.0.0.200',
  subnet_mask: '255.255.255.0',
  gateway: '10.0.0.1',
  dns_forwarders: '1.1.1.1',
  created_at: at,
  updated_at: at,
});

/** A site agent's check-in body (POST /agents) for gateway `gw1`, as the agent sends it. */
export const checkin = (siteId: number, extra: Record<string, unknown> = {}) => ({
  siteId,
  hostname: 'gw1',
  currentTime: Math.floor(Date.now() / 1000),
  ipv4Address: '10.0.0.2',
  services: {
    nginx: { state: 'active', lastApply: 'success' },
    dnsmasq: { state: 'active', lastApply: 'unknown' },
  },
  ...extra,
});

/**
 * A Proxmox VE cluster to import from over HTTPS (self-signed: pin `cluster.fingerprint`), logged in to
 * as root@pam with `password`: node alpha runs container 200 (imported-a, with a MAC address), node
 * beta holds the stopped container 201 (imported-b).
 */
export async function startImportCluster(password: string): Promise<ProxmoxFake> {
  const cluster = await new ProxmoxFake({
    tls: true,
    nodes: ['alpha', 'beta'],
    users: { 'root@pam': password },
    taskDurationMs: 0,
  }).start();
  cluster.addContainer({
    vmid: 200,
    node: 'alpha',
    status: 'running',
    config: { hostname: 'imported-a', net0: 'name=eth0,bridge=vmbr0,hwaddr=BC:24:11:00:02:00,ip=dhcp' },
  });
  cluster.addContainer({ vmid: 201, node: 'beta', config: { hostname: 'imported-b' } });
  return cluster;
}

export { readSse, type SseEvent } from '@app/server-kit/testing';

/** Waits until `check` returns a value (polling), or fails after `ms`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  ms = 10_000,
  every = 50,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, every));
  }
}
