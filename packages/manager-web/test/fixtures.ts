// Server state for browser tests, set up through the API the way the manager's own tests do: sites,
// dummy nodes, provisioned containers and an administrator's API key.
import type { TestClient } from '@app/server-kit/testing';
import { ManagerClient, type TestManager } from '@app/manager/testing';
import { siteInput } from '@app/manager/testing/fleet';
import { jobEnds } from '@app/manager/testing/containers';

function created<T>(response: { status: number; text: string; body: { data: T } }, what: string): T {
  if (response.status !== 201) throw new Error(`${what}: ${response.status} ${response.text}`);
  return response.body.data;
}

/** A site named `name` (its internal domain follows the name); returns its id. */
export async function addSite(admin: ManagerClient, name: string): Promise<number> {
  const site = created<{ id: number }>(
    await admin.post('/sites', siteInput({ name, internalDomain: `${name}.internal` })),
    'create site',
  );
  return site.id;
}

/** An external domain whose default site is `siteId`; returns its id. */
export async function addDomain(
  admin: ManagerClient,
  siteId: number,
  name: string,
  body: Record<string, unknown> = {},
): Promise<number> {
  return created<{ id: number }>(
    await admin.post('/external-domains', { name, siteId, ...body }),
    'create domain',
  ).id;
}

/** A simulated node of the site; returns its id. */
export async function addDummyNode(admin: ManagerClient, siteId: number, name: string): Promise<number> {
  return created<{ id: number }>(
    await admin.post(`/sites/${siteId}/nodes`, { name, nodeType: 'dummy' }),
    'create node',
  ).id;
}

/** A container created by `client` (its owner), once its creation job succeeded; returns its id. */
export async function addContainer(
  client: ManagerClient,
  siteId: number,
  hostname: string,
  body: Record<string, unknown> = {},
): Promise<number> {
  const data = created<{ containerId: number; jobId: number }>(
    await client.post(`/sites/${siteId}/containers`, { hostname, template: 'debian:12', ...body }),
    'create container',
  );
  const status = await jobEnds(client, data.jobId);
  if (status !== 'success') throw new Error(`creating ${hostname}: job ${data.jobId} ended ${status}`);
  return data.containerId;
}

/** A client authenticated with a new API key of `admin`, as node-side tools and agents call. */
export async function adminKeyClient(test: TestManager, admin: ManagerClient): Promise<TestClient> {
  const key = created<{ key: string }>(
    await admin.post('/apikeys', { description: 'node tools' }),
    'api key',
  );
  return ManagerClient.withKey(`${test.baseUrl}/api/v1`, key.key);
}
