import type { Router } from '../shared/router.ts';
import { emptyReply, FakeHttpError, jsonReply } from '../shared/types.ts';
import type { DockerNetwork } from './containers.ts';
import { jsonBody, type DockerRouteContext } from './routes.ts';

interface IpamConfig {
  Subnet?: string;
  Gateway?: string;
}

const inspectNetwork = (network: DockerNetwork, labels: Record<string, string>, podman: boolean) => ({
  Name: network.name,
  Id: network.id,
  Created: new Date().toISOString(),
  Scope: 'local',
  Driver: 'bridge',
  EnableIPv6: false,
  IPAM: {
    Driver: 'default',
    Options: podman ? { driver: 'host-local' } : null,
    Config: [{ Subnet: network.subnet, Gateway: network.gateway }],
  },
  Internal: false,
  Attachable: false,
  Ingress: false,
  ConfigFrom: { Network: '' },
  ConfigOnly: false,
  Containers: {},
  Options: {},
  Labels: labels,
});

/** `/networks/create`, `/networks/{name}` (inspect, delete), refusing a taken name or subnet as each engine does. */
export function registerNetworkRoutes(router: Router, ctx: DockerRouteContext): void {
  const store = ctx.containers;
  const labels = new WeakMap<DockerNetwork, Record<string, string>>();
  const find = (name: string) => {
    const network = store.networks.get(name) ?? [...store.networks.values()].find((n) => n.id === name);
    if (!network) {
      throw new FakeHttpError(
        404,
        ctx.podman
          ? `unable to find network with name or ID ${name}: network not found`
          : `network ${name} not found`,
      );
    }
    return network;
  };
  router.get('/networks/:name', (req) => {
    const network = find(req.params.name!);
    return jsonReply(200, inspectNetwork(network, labels.get(network) ?? {}, ctx.podman));
  });
  router.delete('/networks/:name', (req) => {
    const network = find(req.params.name!);
    store.removeNetwork(network);
    return emptyReply(204);
  });
  router.post('/networks/create', (req) => {
    const body = jsonBody(req);
    const name = typeof body.Name === 'string' ? body.Name : '';
    if (store.networks.has(name)) {
      throw ctx.podman
        ? new FakeHttpError(500, `network name ${name} already used: network already exists`)
        : new FakeHttpError(409, `network with name ${name} already exists`);
    }
    const config = ((body.IPAM as { Config?: IpamConfig[] } | undefined)?.Config ?? [])[0] ?? {};
    if (!config.Subnet) throw new FakeHttpError(400, 'the fake only makes networks with a given subnet');
    if ([...store.networks.values()].some((network) => network.subnet === config.Subnet)) {
      throw ctx.podman
        ? new FakeHttpError(500, `subnet ${config.Subnet} is already used on the host or by another config`)
        : new FakeHttpError(403, 'Pool overlaps with other one on this address space');
    }
    const network = store.addNetwork(name, config.Subnet, true, config.Gateway);
    labels.set(network, (body.Labels as Record<string, string> | undefined) ?? {});
    return jsonReply(201, { Id: network.id, Warning: '' });
  });
}
