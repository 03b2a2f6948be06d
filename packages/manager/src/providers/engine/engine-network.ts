import type { OperationContext, SiteAddress } from '../types.ts';
import { EngineApiError, type EngineClient } from './engine-client.ts';

export const MANAGED_LABEL = 'org.container-manager.managed';

/** `10.0.0.0/24` → `fleet-10.0.0.0-24`: one engine network per site subnet, named so an operator can make it first. */
const PREFIX = 'fleet-';
export const siteNetworkName = (subnet: string) => `${PREFIX}${subnet.replace('/', '-')}`;
export const isSiteNetwork = (name: string) => name.startsWith(PREFIX);

/**
 * The engine network a site's containers join, made (a bridge with the site's subnet and gateway) when
 * the engine has none of that name yet. Its containers are given the address the manager allocated, so
 * the address dnsmasq reserves and nginx proxies to is the container's. A network of that name the
 * operator made (e.g. macvlan on the site's LAN) is used as it is.
 */
export async function ensureSiteNetwork(
  client: EngineClient,
  address: SiteAddress,
  ctx: OperationContext,
): Promise<string> {
  const name = siteNetworkName(address.subnet);
  if (await exists(client, name, ctx.signal)) return name;
  await ctx.log(`Creating engine network ${name} (subnet ${address.subnet}, gateway ${address.gateway})`);
  try {
    await client.json({
      method: 'POST',
      path: '/networks/create',
      body: {
        Name: name,
        CheckDuplicate: true,
        Driver: 'bridge',
        Labels: { [MANAGED_LABEL]: 'true' },
        IPAM: { Config: [{ Subnet: address.subnet, Gateway: address.gateway }] },
      },
      signal: ctx.signal,
    });
  } catch (error) {
    // A create running alongside may have made it first (Docker answers 409, Podman 500).
    if (!(await exists(client, name, ctx.signal))) throw error;
  }
  return name;
}

async function exists(client: EngineClient, name: string, signal: AbortSignal) {
  try {
    await client.json({ method: 'GET', path: `/networks/${name}`, signal });
    return true;
  } catch (error) {
    if (error instanceof EngineApiError && error.status === 404) return false;
    throw error;
  }
}
