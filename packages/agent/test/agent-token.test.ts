import { mkdtempSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envReader } from '@app/server-kit';
import { adminClient, type ManagerClient, type TestManager } from '@app/manager/testing';
import { startFleetManager } from '@app/manager/testing/fleet';
import { siteWithTcpService } from '@app/manager/testing/containers';
import { readAgentConfig } from '../src/config.ts';
import { runOnce } from '../src/run.ts';
import { TrafficReporter } from '../src/traffic/reporter.ts';

/**
 * A reverse proxy in front of the manager (as on a host where the agent is not), which says the client
 * is 203.0.113.5: it stands for the network between a remote gateway and the manager.
 */
async function startForwardingProxy(target: string): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, 'x-forwarded-for': '203.0.113.5' },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('a remote site agent authenticates with its site agent token (AGENT_TOKEN)', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let proxy: Awaited<ReturnType<typeof startForwardingProxy>>;
  let siteId: number;
  let containerId: number;
  let serviceId: number;
  let token: string;

  const agentConfig = (env: Record<string, string>) =>
    readAgentConfig(
      envReader({
        SITE_ID: String(siteId),
        MANAGER_URL: proxy.url,
        STATE_DIRECTORY: mkdtempSync(join(tmpdir(), 'agent-state-')),
        AGENT_HOSTNAME: 'remote-gw',
        ...env,
      }),
    );
  const quiet = { info: () => undefined, error: () => undefined } as never;

  beforeAll(async () => {
    test = await startFleetManager();
    admin = await adminClient(test);
    proxy = await startForwardingProxy(test.baseUrl);
    ({ siteId, containerId, serviceId } = await siteWithTcpService(admin, 'web1'));
    token = (await admin.post(`/sites/${siteId}/agent-tokens`, { description: 'remote-gw' })).body.data.token;
  });
  afterAll(async () => {
    proxy?.server.close();
    await test?.close();
  });

  it('without a credential the remote agent is refused', async () => {
    await expect(runOnce(agentConfig({}), [], quiet)).rejects.toThrow(/check-in answered 401/);
  });

  it('checks in with AGENT_TOKEN and is recorded', async () => {
    const outcome = await runOnce(agentConfig({ AGENT_TOKEN: token }), [], quiet);
    expect(outcome.changed).toBe(true);
    const agents = (await admin.get('/agents')).body.data as Array<{ hostname: string; siteId: number }>;
    expect(agents.map((agent) => [agent.siteId, agent.hostname])).toEqual([[siteId, 'remote-gw']]);
  });

  it('reports traffic with AGENT_TOKEN', async () => {
    const reporter = new TrafficReporter(agentConfig({ AGENT_TOKEN: token }), undefined, {
      warn: () => undefined,
    });
    expect(await reporter.seen(serviceId)).toBe(true);
    const container = (await admin.get(`/sites/${siteId}/containers/${containerId}`)).body.data;
    expect(container.lastAccessedAt).not.toBeNull();
  });
});
