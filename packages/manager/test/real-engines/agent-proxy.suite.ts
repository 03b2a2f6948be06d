import { promises as dns } from 'node:dns';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runAgentCli } from '@app/agent/testing/agent-cli';
import { eventually, get, startSandbox, type Sandbox } from '@app/agent/testing/sandbox';
import { engineCall } from './engine-api.ts';
import {
  createWithAgent,
  imageServices,
  engineSite,
  removeEngineSite,
  type EngineSite,
} from './engine-fixture.ts';
import { tcpAnswer } from './tcp-answer.ts';
import { TEST_IMAGE } from './test-image.ts';

const { engines, registry, image } = inject('realEngines');

/**
 * The whole path on real software: a container the manager made on a real engine, behind the real site
 * agent's nginx and dnsmasq (in a sandbox of their own on loopback ports), the agent run as its
 * `site-agent run` command is by its timer.
 */
describe.each(engines.map((engine, index) => ({ ...engine, subnet: `10.231.${index + 11}` })))(
  'the real site agent in front of a container on a real $name engine',
  ({ name, socket, subnet }) => {
    let site: EngineSite | undefined;
    let sandbox: Sandbox | undefined;
    const host = `re-proxied1-${name}.real.example.com`;
    let transportPort: number;

    /** One run of the agent against the manager, which must apply what it gets. */
    const runAgent = async () => {
      const { code, stdout, stderr } = await runAgentCli(['run'], sandbox!.env);
      expect({ code, stderr }, stdout).toEqual({ code: 0, stderr: '' });
      return stdout;
    };

    /**
     * A request through nginx, whose failure shows nginx's error log: nginx refuses a reload it cannot
     * apply (a port taken, say) after the agent has sent the signal, and goes on with the old configuration.
     */
    const throughNginx = <T>(request: Promise<T>) =>
      request.catch((error: Error) => {
        const log = readFileSync(join(sandbox!.dir, 'nginx', 'error.log'), 'utf8');
        throw new Error(`${error.message}; nginx's error log:\n${log}`);
      });

    beforeAll(async () => {
      // Below the host's ephemeral ports (32768 and up), which any outgoing connection here may hold.
      const low = 30_000 + Math.floor(Math.random() * 2_500);
      site = await engineSite(socket, subnet, registry, { TRANSPORT_PORT_RANGE: `${low}-${low + 50}` });
      sandbox = await startSandbox({ MANAGER_URL: site.test.baseUrl, SITE_ID: String(site.siteId) });
    });
    afterAll(async () => {
      await sandbox?.stop();
      await removeEngineSite(site, socket, image);
    });

    it('creates a container with HTTP and TCP services: the real agent prepares its volume', async () => {
      const { admin, siteId, domainId } = site!;
      const { containerId, status, outputs } = await createWithAgent(
        site!,
        siteId,
        {
          hostname: 're-proxied1',
          template: image,
          services: imageServices(`re-proxied1-${name}`, domainId),
        },
        async () => void (await runAgent()),
      );
      expect(status, outputs.join('\n')).toBe('success');
      const container = (await admin.get(`/sites/${siteId}/containers/${containerId}`)).body.data;
      expect(container.status).toBe('running');
      transportPort = container.services.find((service: { type: string }) => service.type === 'transport')
        .transportService.externalPort;
    });

    it('proxies a request for the service’s host name to busybox httpd in the container', async () => {
      await runAgent(); // its timer's next run, after the job: what a user's request meets
      const reply = await throughNginx(
        eventually(
          () => get(sandbox!.config.nginx.httpPort, host, '/cgi-bin/env'),
          (answer) => answer.status === 200,
        ),
      );
      expect(reply).toMatchObject({ status: 200, body: `greeting=${TEST_IMAGE.env.GREETING}\n` });
      expect(await get(sandbox!.config.nginx.httpPort, host)).toMatchObject({
        status: 200,
        body: 'hello from a real engine\n',
      });
    });

    it('has dnsmasq answer the container’s name with the address the engine gave it', async () => {
      const inspected = await engineCall(socket, 'GET', '/containers/re-proxied1/json');
      const networks = (
        inspected.body as { NetworkSettings: { Networks: Record<string, { IPAddress: string }> } }
      ).NetworkSettings.Networks;
      const resolver = new dns.Resolver();
      resolver.setServers([`127.0.0.1:${sandbox!.dnsPort}`]);
      expect(await resolver.resolve4('re-proxied1.main.internal')).toEqual([
        networks[site!.network]!.IPAddress,
      ]);
    });

    it('forwards the TCP service’s external port through nginx’s stream module to the container', async () => {
      expect(await throughNginx(tcpAnswer('127.0.0.1', transportPort))).toBe('tcp-ok\n');
    });
  },
);
