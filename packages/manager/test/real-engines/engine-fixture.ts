import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { BuildOptions } from '../../src/app.ts';
import { adminClient, type ManagerClient, type TestManager } from '../helpers.ts';
import { eventually, siteInput, startFleetManager } from '../fleet-helpers.ts';
import { addDomain, jobEnds, jobOutputs } from '../container-helpers.ts';
import { engineCall } from './engine-api.ts';
import { TEST_IMAGE } from './test-image.ts';

export interface EngineSite {
  test: TestManager;
  admin: ManagerClient;
  siteId: number;
  nodeId: number;
  domainId: number;
  storageRoot: string;
  /** The site's engine network, as the manager names it. */
  network: string;
}

/**
 * A manager (`managerEnv` over the usual settings, built with `options`) with one site whose node is
 * the engine on `socket`; `subnet` (`10.231.N`) must differ per engine and test file: each makes a
 * bridge of the site's subnet on this host. The site agent is played by the test (check-ins through
 * the API, volume folders made under `storageRoot`).
 */
export async function engineSite(
  socket: string,
  subnet: string,
  registry: string,
  managerEnv: Record<string, string> = {},
  options: BuildOptions = {},
): Promise<EngineSite> {
  const storageRoot = mkdtempSync(join(tmpdir(), 'fleet-test-volumes-'));
  // Real engines answer more slowly than the fakes: a pull or a create takes seconds.
  const test = await startFleetManager(
    {
      NODE_TIMEOUT_MS: '30000',
      VOLUME_STORAGE_ROOT: storageRoot,
      ...managerEnv,
    },
    options,
  );
  const admin = await adminClient(test);
  expect((await admin.put('/settings', { registryAllowlist: [registry] })).status).toBe(200);
  const site = await admin.post(
    '/sites',
    siteInput({ name: `Real ${subnet}`, dhcpRange: `${subnet}.100,${subnet}.200`, gateway: `${subnet}.1` }),
  );
  expect(site.status, site.text).toBe(201);
  const siteId = site.body.data.id as number;
  const node = await admin.post(`/sites/${siteId}/nodes`, {
    name: 'engine1',
    nodeType: 'engine',
    apiUrl: `unix://${socket}`,
    volumeStorage: 'volumes',
  });
  expect(node.status, node.text).toBe(201);
  const domainId = await addDomain(test, { name: 'real.example.com', siteId });
  const result = {
    test,
    admin,
    siteId,
    nodeId: node.body.data.id,
    domainId,
    storageRoot,
    network: `fleet-${subnet}.0-24`,
  };
  await playAgent(result); // the site's agent has checked in: jobs wait for it to make volume folders
  return result;
}

/**
 * Makes the volume folders the snapshot of site `siteId` lists as pending and reports them ready, as
 * the agent does.
 */
export async function playAgent(site: EngineSite, siteId = site.siteId): Promise<void> {
  const checkin = (volumes?: unknown[]) =>
    site.test.client().post('/agents', {
      siteId,
      hostname: 'gw1',
      services: {},
      ...(volumes ? { volumes } : {}),
    });
  const snapshot = (await checkin()).body.data;
  const pending = (snapshot.proxy.volumes as Array<{ id: number; hostPath: string; status: string }>).filter(
    (volume) => volume.status !== 'ready',
  );
  for (const volume of pending) mkdirSync(volume.hostPath, { recursive: true });
  if (pending.length) await checkin(pending.map((volume) => ({ id: volume.id, status: 'ready' })));
}

/**
 * Removes what the tests made on the engine, whatever happened: containers named `re-…`, the site
 * network, the pulled test image; then the manager and the volume folders.
 */
export async function removeEngineSite(site: EngineSite | undefined, socket: string, image: string) {
  if (!site) return;
  await site.test.close();
  const listed = await engineCall(socket, 'GET', '/containers/json?all=1');
  for (const container of listed.body as Array<{ Id: string; Names: string[] }>) {
    if (container.Names.some((name) => name.replace(/^\//, '').startsWith('re-')))
      await engineCall(socket, 'DELETE', `/containers/${container.Id}?force=1&v=1`);
  }
  await engineCall(socket, 'DELETE', `/networks/${site.network}`);
  await engineCall(socket, 'DELETE', `/images/${encodeURIComponent(image)}?force=1`);
  rmSync(site.storageRoot, { recursive: true, force: true });
}

/**
 * Asks for a container on site `siteId` through the API while `agent` checks in for that site, by
 * default played by the test (the image declares a VOLUME, so the job waits for its folder): the new
 * container's and its job's ids, once the agent has made the folder.
 */
export async function startCreateWithAgent(
  site: EngineSite,
  siteId: number,
  body: Record<string, unknown>,
  agent = () => playAgent(site, siteId),
) {
  await agent(); // the agent has checked in, so the job waits for it
  const response = await site.admin.post(`/sites/${siteId}/containers`, body);
  expect(response.status, response.text).toBe(201);
  const jobId = response.body.data.jobId as number;
  await eventually(
    async () =>
      (await jobOutputs(site.admin, jobId)).some((line) => line.startsWith('Waiting for the site agent')),
    30_000,
  );
  await agent();
  return { containerId: response.body.data.containerId as number, jobId };
}

/** startCreateWithAgent, then the end of its job: the new container's id, the job's status and output. */
export async function createWithAgent(
  site: EngineSite,
  siteId: number,
  body: Record<string, unknown>,
  agent = () => playAgent(site, siteId),
) {
  const { containerId, jobId } = await startCreateWithAgent(site, siteId, body, agent);
  const status = await jobEnds(site.admin, jobId);
  return { containerId, status, outputs: await jobOutputs(site.admin, jobId) };
}

/** The test image's services: HTTP as `externalHostname` on the site's domain `externalDomainId`, and TCP. */
export const imageServices = (externalHostname: string, externalDomainId: number) => ({
  web: { type: 'http', internalPort: TEST_IMAGE.httpPort, externalHostname, externalDomainId },
  raw: { type: 'tcp', internalPort: TEST_IMAGE.tcpPort },
});
