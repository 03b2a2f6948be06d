import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, type ManagerClient, type TestManager } from '@app/manager/testing';
import { siteWithDomain, startFleetManager } from '@app/manager/testing/fleet';
import { addWebContainer } from '@app/manager/testing/containers';
import { runOnce } from '../src/run.ts';
import type { AgentConfig } from '../src/config.ts';
import { servedCertificate, startPebble, type Pebble } from './pebble.ts';
import { eventually, startSandbox, type Sandbox } from './sandbox.ts';

const HOST = 'web1.apps.example.test';

/**
 * The whole path: an external domain with an ACME contact in the manager → the agent's run obtains
 * the certificate from Pebble, nginx serves it, and the run's second check-in reports it to the
 * manager, which lists it under the domain.
 */
describe('certificates through the manager, the agent run, Pebble and nginx', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let sandbox: Sandbox;
  let pebble: Pebble;
  let config: AgentConfig;
  let domainId: number;
  const quiet = { info: () => undefined, error: () => undefined } as never;

  beforeAll(async () => {
    test = await startFleetManager();
    admin = await adminClient(test);
    const { siteId, domainId: id } = await siteWithDomain(admin, {
      site: { dhcpRange: '127.0.0.100,127.0.0.150', gateway: '127.0.0.1', dnsForwarders: '127.0.0.1' },
      nodeAddress: '127.0.0.2',
    });
    domainId = id;
    sandbox = await startSandbox({ MANAGER_URL: test.baseUrl, SITE_ID: String(siteId) });
    pebble = await startPebble(sandbox.config.nginx.httpPort, 300);
    config = { ...sandbox.config, acme: { caFile: pebble.tlsCaFile, retryMs: 60_000, dnsPropagationMs: 0 } };
    // The domain's ACME settings, and a service under it, once Pebble runs.
    await admin.put(`/external-domains/${domainId}`, {
      name: 'apps.example.test',
      siteId,
      acmeEmail: 'ops@example.test',
      acmeDirectoryUrl: pebble.directoryUrl,
    });
    expect(await addWebContainer(admin, siteId, domainId)).toBe('success');
  });
  afterAll(async () => {
    await sandbox?.stop();
    await pebble?.stop();
    await test?.close();
  });

  it('obtains the certificate in the run that applies the domain, serves it and reports it', async () => {
    const outcome = await runOnce(config, undefined, quiet);
    expect(outcome.applied.nginx).toMatchObject({ result: 'success' });
    const root = await pebble.root();
    const served = await eventually(
      () => servedCertificate(config.nginx.httpsPort, HOST, root),
      (c) => Boolean(c.subjectaltname),
    );
    expect(served.subjectaltname).toBe(`DNS:${HOST}`);

    const listed = (await admin.get(`/external-domains/${domainId}/certificates`)).body.data;
    expect(listed).toEqual([
      expect.objectContaining({
        hostname: HOST,
        lastError: null,
        notAfter: new Date(served.valid_to).toISOString(),
      }),
    ]);

    // Nothing new from the manager and nothing due: the run leaves nginx alone.
    expect(await runOnce(config, undefined, quiet)).toEqual({ changed: false, applied: {} });
  });
});
