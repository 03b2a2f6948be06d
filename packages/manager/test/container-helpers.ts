import { expect } from 'vitest';
import type { SecretBox } from '@app/server-kit';
import { adminClient, uidNumberOf, userClient, type ManagerClient, type TestManager } from './helpers.ts';
import { eventually, siteInput, startFleetManager } from './fleet-helpers.ts';

/** Inserts an external domain directly (its endpoints belong to another issue). */
export async function addDomain(
  test: TestManager,
  values: {
    name: string;
    siteId: number | null;
    authServer?: string | null;
    apiEmail?: string | null;
    apiKey?: string | null;
    acmeEmail?: string | null;
  },
): Promise<number> {
  const secrets = test.manager.services.ctx.secrets as SecretBox;
  const now = new Date().toISOString();
  const row = await test.manager.database.db
    .insertInto('external_domains')
    .values({
      name: values.name,
      acme_email: values.acmeEmail ?? null,
      acme_directory_url: null,
      dns_provider_api_email: values.apiEmail ?? null,
      dns_provider_api_key_sealed: values.apiKey ? secrets.seal(values.apiKey) : null,
      site_id: values.siteId,
      auth_server: values.authServer ?? null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

interface AdoptedContainer {
  hostname: string;
  nodeId: number;
  containerId: string;
}

/** The row of a container put in place directly (as if adopted from its node), running. */
function adoptedRow(values: AdoptedContainer, ownerUidNumber: number) {
  const now = new Date().toISOString();
  return {
    hostname: values.hostname,
    owner_uid_number: ownerUidNumber,
    node_id: values.nodeId,
    container_id: values.containerId,
    status: 'running' as const,
    template: 'debian',
    ipv4_address: null,
    mac_address: null,
    creation_job_id: null,
    entrypoint: null,
    environment_vars: '{}',
    nvidia_requested: 0,
    created_at: now,
    updated_at: now,
  };
}

/** A container row put in place directly (as if adopted from its node), running; returns its id. */
export async function insertContainer(
  test: TestManager,
  values: AdoptedContainer & { owner: string },
): Promise<number> {
  const row = await test.manager.database.db
    .insertInto('containers')
    .values(adoptedRow(values, await uidNumberOf(test, values.owner)))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Many such rows of one owner at once (a site of thousands of containers), 500 to a statement. */
export async function insertContainers(
  test: TestManager,
  owner: string,
  rows: AdoptedContainer[],
): Promise<void> {
  const ownerUidNumber = await uidNumberOf(test, owner);
  for (let start = 0; start < rows.length; start += 500)
    await test.manager.database.db
      .insertInto('containers')
      .values(rows.slice(start, start + 500).map((row) => adoptedRow(row, ownerUidNumber)))
      .execute();
}

/** Waits for a job to end and returns its status. */
export async function jobEnds(client: ManagerClient, jobId: number): Promise<string> {
  return eventually(async () => {
    const job = await client.get(`/jobs/${jobId}`);
    const status = job.body.data?.status as string | undefined;
    return status && status !== 'pending' && status !== 'running' ? status : undefined;
  }, 20_000);
}

/** The output lines of a job. */
export async function jobOutputs(client: ManagerClient, jobId: number): Promise<string[]> {
  const rows = (await client.get(`/jobs/${jobId}/status`)).body.data as Array<{ output: string }>;
  return rows.map((row) => row.output);
}

/** `{KEY: value}` as the API's EnvVar list. */
export const envVars = (environment: Record<string, string>) =>
  Object.entries(environment).map(([key, value]) => ({ key, value }));

/** Creates a container through the API and waits for its job: its status, output and the container. */
export async function createAndWait(client: ManagerClient, siteId: number, body: Record<string, unknown>) {
  const response = await client.post(`/sites/${siteId}/containers`, body);
  expect(response.status, response.text).toBe(201);
  const { containerId, jobId } = response.body.data as { containerId: number; jobId: number };
  const status = await jobEnds(client, jobId);
  const outputs = await jobOutputs(client, jobId);
  const container = (await client.get(`/sites/${siteId}/containers/${containerId}`)).body.data;
  return { status, outputs, container };
}

/**
 * Gives a container a new set of user variables (PUT) and waits for the reconfigure-and-restart job,
 * which must succeed: its output and the container after it.
 */
export async function setEnvironmentAndWait(
  client: ManagerClient,
  siteId: number,
  id: number,
  environment: Record<string, string>,
) {
  const response = await client.put(`/sites/${siteId}/containers/${id}`, {
    environmentVars: envVars(environment),
  });
  expect(response.status, response.text).toBe(200);
  const jobId = response.body.data.jobId as number;
  const status = await jobEnds(client, jobId);
  const outputs = await jobOutputs(client, jobId);
  expect(status, outputs.join('\n')).toBe('success');
  const container = (await client.get(`/sites/${siteId}/containers/${id}`)).body.data;
  return { outputs, container };
}

/**
 * Asks as `admin` (approved at once) for `value` of `resourceType` for the container `hostname` on
 * site `siteId`, and waits for the job that applies it: its status and output.
 */
export async function resize(
  test: TestManager,
  admin: ManagerClient,
  siteId: number,
  hostname: string,
  resourceType: 'cpus' | 'memory',
  value: number,
) {
  const asked = await admin.post('/resource-requests', { siteId, hostname, resourceType, value });
  expect(asked.status, asked.text).toBe(201);
  // An approval made with the request does not return its job: it is the newest apply job.
  const job = await test.manager.database.db
    .selectFrom('jobs')
    .select('id')
    .where('command', '=', 'container.apply')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return { status: await jobEnds(admin, job.id), outputs: await jobOutputs(admin, job.id) };
}

/**
 * A site (`site` overrides its input) with a simulated node `<hostname>-node` and one provisioned
 * container `hostname` with a TCP service on port 22.
 */
export async function siteWithTcpService(
  admin: ManagerClient,
  hostname: string,
  site: Record<string, unknown> = {},
): Promise<{ siteId: number; containerId: number; serviceId: number }> {
  const siteId = (await admin.post('/sites', siteInput(site))).body.data.id as number;
  await admin.post(`/sites/${siteId}/nodes`, { name: `${hostname}-node`, nodeType: 'dummy' });
  const created = await admin.post(`/sites/${siteId}/containers`, {
    hostname,
    template: 'nginx:latest',
    services: { ssh: { type: 'tcp', internalPort: 22 } },
  });
  expect(created.status, created.text).toBe(201);
  expect(await jobEnds(admin, created.body.data.jobId)).toBe('success');
  const containerId = created.body.data.containerId as number;
  const container = (await admin.get(`/sites/${siteId}/containers/${containerId}`)).body.data;
  return { siteId, containerId, serviceId: container.services[0].id };
}

/** How an exec job ended: the command's exit code, or its timeout in seconds. */
type ExecEnd = { exitCode: number } | { timeoutSeconds: number };

/** The output of an exec job: the command as it was run, what it printed, then how it ended. */
export function execOutput(shown: string, printed: string[], end: ExecEnd): string[] {
  const ending =
    'timeoutSeconds' in end
      ? [
          `Timed out after ${end.timeoutSeconds} s: the command was stopped.`,
          `Error: The command ran longer than its timeout of ${end.timeoutSeconds} s.`,
        ]
      : [
          `Exit code ${end.exitCode}.`,
          ...(end.exitCode ? [`Error: The command exited with code ${end.exitCode}.`] : []),
        ];
  return [`$ ${shown}`, ...printed, ...ending];
}

/** An administrator and three users: the owner olga, her collaborator colin, and oscar, a stranger. */
export async function containerPeople(test: TestManager) {
  const admin = await adminClient(test);
  return {
    admin,
    owner: await userClient(test, admin, 'olga'),
    collab: await userClient(test, admin, 'colin'),
    other: await userClient(test, admin, 'oscar'),
  };
}

/** The container `web1` publishing `web1.<domain>` (backend port 8080), once its creation job ended. */
export async function addWebContainer(
  admin: ManagerClient,
  siteId: number,
  domainId: number,
  hostname = 'web1',
) {
  const created = await admin.post(`/sites/${siteId}/containers`, {
    hostname,
    template: 'nginx:latest',
    services: {
      web: { type: 'http', internalPort: 8080, externalHostname: hostname, externalDomainId: domainId },
    },
  });
  if (created.status !== 201) throw new Error(`create ${hostname}: ${created.status} ${created.text}`);
  return jobEnds(admin, created.body.data.jobId);
}

/** A fleet manager (with `env`) holding one site with a simulated node `sim1`, and containerPeople. */
export async function dummySite(env?: Record<string, string>) {
  const test = await startFleetManager(env);
  const people = await containerPeople(test);
  const siteId = (await people.admin.post('/sites', siteInput())).body.data.id as number;
  await people.admin.post(`/sites/${siteId}/nodes`, { name: 'sim1', nodeType: 'dummy' });
  return { test, siteId, ...people };
}

export type DummySite = Awaited<ReturnType<typeof dummySite>>;
