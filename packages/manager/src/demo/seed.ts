import { uniqueViolationColumns } from '@app/server-kit';
import type { Services } from '../services.ts';

export const DEMO_SITE = {
  name: 'Demo site',
  internalDomain: 'demo.internal',
  dhcpRange: '10.15.0.100,10.15.0.250',
  subnetMask: '255.255.255.0',
  gateway: '10.15.0.1',
  dnsForwarders: '1.1.1.1,9.9.9.9',
  externalIp: null,
};

/** The demo site's external domain (a reserved test name), so its first HTTP service has one to use. */
export const DEMO_DOMAIN = 'demo.example.test';

/**
 * With an empty database outside production: one demo site with one simulated (dummy) node and an
 * external domain, so a newcomer can create a container with an HTTP service without a hypervisor. Returns true when it seeded. Processes
 * starting together may all find the database empty: the site and node are written in one
 * transaction, and the unique node name lets exactly one of them commit.
 */
export async function seedDemo(
  services: Pick<Services, 'ctx' | 'sites' | 'nodes' | 'externalDomains'>,
  production: boolean,
): Promise<boolean> {
  if (production || (await services.sites.count()) > 0) return false;
  let siteId: number;
  try {
    siteId = await services.ctx.db.transaction().execute(async (trx) => {
      const site = await services.sites.create(DEMO_SITE, trx);
      await services.nodes.create(
        site.id,
        { name: 'demo-node', nodeType: 'dummy', ipv4Address: '10.15.0.2' },
        trx,
      );
      return site.id;
    });
  } catch (error) {
    if (uniqueViolationColumns(error)?.includes('name')) return false;
    throw error;
  }
  await services.externalDomains.create({ name: DEMO_DOMAIN, siteId });
  return true;
}
