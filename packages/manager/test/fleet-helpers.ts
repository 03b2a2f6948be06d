import { ProxmoxFake } from '@app/fakes';
import type { BuildOptions } from '../src/app.ts';
import { startManager, type TestManager } from './helpers.ts';

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

export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/** Reads a server-sent event stream until it ends (or `stop` says so); returns every event and comment. */
export async function readSse(
  url: string,
  headers: Record<string, string>,
  options: { stop?: (event: SseEvent) => boolean; signal?: AbortSignal } = {},
): Promise<{ status: number; events: SseEvent[]; comments: string[]; contentType: string | null }> {
  const response = await fetch(url, { headers, signal: options.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  if (!response.body || response.status !== 200) {
    return { status: response.status, events, comments, contentType: response.headers.get('content-type') };
  }
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let index: number;
      while ((index = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        const event: SseEvent = { event: 'message', data: '' };
        let isEvent = false;
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) comments.push(line.slice(1).trim());
          else if (line.startsWith('id: ')) event.id = line.slice(4);
          else if (line.startsWith('event: ')) {
            event.event = line.slice(7);
            isEvent = true;
          } else if (line.startsWith('data: ')) {
            event.data += line.slice(6);
            isEvent = true;
          }
        }
        if (isEvent) {
          events.push(event);
          if (options.stop?.(event)) {
            await reader.cancel();
            return {
              status: response.status,
              events,
              comments,
              contentType: response.headers.get('content-type'),
            };
          }
        }
      }
    }
  } catch (error) {
    if (!options.signal?.aborted) throw error;
  }
  return { status: response.status, events, comments, contentType: response.headers.get('content-type') };
}

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
