// Server state for browser tests, set up through the API the way the manager's own tests do: sites,
// dummy nodes, provisioned containers and an administrator's API key.
import { freePort, type TestClient } from '@app/server-kit/testing';
import { ManagerClient, userClient, type TestManager } from '@app/manager/testing';
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

/**
 * A container of `siteId` whose create failed: the site's only node is an engine at an address nobody
 * answers on (added here as `node`). Returns the container's and its create job's ids.
 */
export async function addFailedContainer(
  admin: ManagerClient,
  siteId: number,
  node: string,
  hostname: string,
): Promise<{ containerId: number; jobId: number }> {
  const apiUrl = `http://127.0.0.1:${await freePort()}`;
  created(
    await admin.post(`/sites/${siteId}/nodes`, { name: node, nodeType: 'engine', apiUrl }),
    'create node',
  );
  const data = created<{ containerId: number; jobId: number }>(
    await admin.post(`/sites/${siteId}/containers`, { hostname, template: 'app:1' }),
    'create container',
  );
  const status = await jobEnds(admin, data.jobId);
  if (status !== 'failure') throw new Error(`creating ${hostname}: job ${data.jobId} ended ${status}`);
  return data;
}

/**
 * A site of its own with a dummy node, and a container of the new user `owner` shared with the new user
 * `collaborator`: what the tests of what an owner may and a collaborator may not do start from.
 */
export async function sharedContainer(
  test: TestManager,
  admin: ManagerClient,
  names: { site: string; node: string; owner: string; collaborator: string; hostname: string },
): Promise<{ siteId: number; id: number; owner: ManagerClient }> {
  const siteId = await addSite(admin, names.site);
  await addDummyNode(admin, siteId, names.node);
  const owner = await userClient(test, admin, names.owner);
  await userClient(test, admin, names.collaborator);
  const id = await addContainer(owner, siteId, names.hostname);
  const shared = await owner.post(`/sites/${siteId}/containers/${id}/collaborators`, {
    username: names.collaborator,
  });
  if (shared.status !== 201) throw new Error(`sharing ${names.hostname}: ${shared.status} ${shared.text}`);
  return { siteId, id, owner };
}

/** A client authenticated with a new API key of `admin`, as node-side tools and agents call. */
export async function adminKeyClient(test: TestManager, admin: ManagerClient): Promise<TestClient> {
  const key = created<{ key: string }>(
    await admin.post('/apikeys', { description: 'node tools' }),
    'api key',
  );
  return ManagerClient.withKey(`${test.baseUrl}/api/v1`, key.key);
}
