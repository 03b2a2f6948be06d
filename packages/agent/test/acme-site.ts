import { adminClient, type ManagerClient, type TestManager } from '@app/manager/testing';
import { siteWithDomain, startFleetManager } from '@app/manager/testing/fleet';
import { addWebContainer } from '@app/manager/testing/containers';
import type { AgentConfig } from '../src/config.ts';
import { startPebble, type Pebble } from './pebble.ts';
import { startSandbox, type Sandbox } from './sandbox.ts';

export const ACME_DOMAIN = 'apps.example.test';

export interface AcmeSite {
  test: TestManager;
  admin: ManagerClient;
  domainId: number;
  sandbox: Sandbox;
  pebble: Pebble;
  /** The agent's configuration, trusting Pebble. */
  config: AgentConfig;
  stop(): Promise<void>;
}

/**
 * A manager with one site whose external domain `apps.example.test` has an ACME contact at a real
 * Pebble (and `domain`'s further settings), a web container under it per name of `hosts`, and an agent
 * sandbox for the site with its own nginx.
 */
export async function startAcmeSite({
  env = {},
  domain = {},
  hosts = ['web1'],
  dnsPropagationMs = 0,
}: {
  env?: Record<string, string>;
  domain?: Record<string, unknown>;
  hosts?: string[];
  dnsPropagationMs?: number;
}): Promise<AcmeSite> {
  const test = await startFleetManager(env);
  const admin = await adminClient(test);
  const { siteId, domainId } = await siteWithDomain(admin, {
    site: { dhcpRange: '127.0.0.100,127.0.0.150', gateway: '127.0.0.1', dnsForwarders: '127.0.0.1' },
    nodeAddress: '127.0.0.2',
  });
  const sandbox = await startSandbox({ MANAGER_URL: test.baseUrl, SITE_ID: String(siteId) });
  const pebble = await startPebble(sandbox.config.nginx.httpPort, 300);
  const config = {
    ...sandbox.config,
    acme: {
      caFile: pebble.tlsCaFile,
      allowlist: [new URL(pebble.directoryUrl).host],
      retryMs: 60_000,
      dnsPropagationMs,
    },
  };
  const updated = await admin.put(`/external-domains/${domainId}`, {
    name: ACME_DOMAIN,
    siteId,
    acmeEmail: 'ops@example.test',
    acmeDirectoryUrl: pebble.directoryUrl,
    ...domain,
  });
  if (updated.status !== 200) throw new Error(`domain settings: ${updated.status} ${updated.text}`);
  for (const host of hosts) {
    const outcome = await addWebContainer(admin, siteId, domainId, host);
    if (outcome !== 'success') throw new Error(`container ${host}: ${outcome}`);
  }
  return {
    test,
    admin,
    domainId,
    sandbox,
    pebble,
    config,
    async stop() {
      await sandbox.stop();
      await pebble.stop();
      await test.close();
    },
  };
}
