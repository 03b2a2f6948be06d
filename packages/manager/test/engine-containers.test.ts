import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerFake } from '@app/fakes';
import { adminClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import {
  createAndWait,
  envVars,
  execOutput,
  jobEnds,
  jobOutputs,
  resize,
  setEnvironmentAndWait,
} from './container-helpers.ts';
import {
  recreatable,
  RUN_AFTER_REPLACING,
  sameEndpoints,
  type InspectedContainer,
} from '../src/providers/engine/engine-provider.ts';

const IMAGE_ENV = ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'LANG=C.UTF-8'];
/** Docker appends the image's variables the container does not set; Podman and the fake put them first. */
const sorted = (env: string[] | undefined) => [...(env ?? [])].sort();

/**
 * A manager with one site whose engine node `nodeName` is `fake` (over TCP), which offers `app:1`; made
 * before the describe's tests and closed after them.
 */
function fakeEngineSite(fake: DockerFake, nodeName: string) {
  const site = {} as { test: TestManager; admin: ManagerClient; siteId: number };
  beforeAll(async () => {
    await fake.start();
    fake.addRemoteImage('app:1', { config: { Env: IMAGE_ENV, Cmd: ['/app'] } });
    site.test = await startFleetManager();
    site.admin = await adminClient(site.test);
    site.siteId = (await site.admin.post('/sites', siteInput({ name: nodeName }))).body.data.id;
    const node = await site.admin.post(`/sites/${site.siteId}/nodes`, {
      name: nodeName,
      nodeType: 'engine',
      apiUrl: `http://127.0.0.1:${fake.port}`,
    });
    expect(node.status, node.text).toBe(201);
  });
  afterAll(async () => {
    await site.test?.close();
    await fake.stop();
  });
  return site;
}

/** Containers through the containers API on a container-engine node (the Docker fake, over TCP). */
describe('containers on engine nodes', () => {
  const docker = new DockerFake({ cpus: 2 });
  const site = fakeEngineSite(docker, 'docker1');

  it("recreates a container with new variables over the image's env: PATH stays, removed ones go, overridden image ones come back", async () => {
    const { status, outputs, container } = await createAndWait(site.admin, site.siteId, {
      hostname: 'app1',
      template: 'app:1',
      environmentVars: envVars({ GREETING: 'hello', LANG: 'de_DE.UTF-8' }),
    });
    expect(status, outputs.join('\n')).toBe('success');
    expect(sorted(docker.container(container.containerId).config.Env)).toEqual(
      sorted([IMAGE_ENV[0]!, 'LANG=de_DE.UTF-8', 'GREETING=hello']),
    );

    // GREETING changes, LANG (an override of the image's) is dropped, MODE is new.
    const changed = await setEnvironmentAndWait(site.admin, site.siteId, container.id, {
      GREETING: 'hi',
      MODE: 'prod',
    });
    expect(changed.outputs).toContain('Recreating app1 with the new environment and entrypoint');
    const recreated = docker.container(changed.container.containerId);
    expect(recreated.id).not.toBe(container.containerId);
    expect(sorted(recreated.config.Env)).toEqual(sorted([...IMAGE_ENV, 'GREETING=hi', 'MODE=prod']));
    expect(recreated.status).toBe('running');

    // No user variables at all: the image's env stays.
    const cleared = await setEnvironmentAndWait(site.admin, site.siteId, container.id, {});
    expect(sorted(docker.container(cleared.container.containerId).config.Env)).toEqual(sorted(IMAGE_ENV));
  });

  it('finishes a recreate whose worker died after removing the old container: the replacement takes its name and the change', async () => {
    const { container } = await createAndWait(site.admin, site.siteId, {
      hostname: 'app3',
      template: 'app:1',
    });
    const engine = `http://127.0.0.1:${docker.port}`;
    const old = (await (
      await fetch(`${engine}/containers/${container.containerId}/json`)
    ).json()) as InspectedContainer;
    // What the dead worker left on the node: the replacement under its own name, the container gone.
    const made = await fetch(`${engine}/containers/create?name=app3.next`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ...old.Config,
        Labels: { ...old.Config.Labels, [RUN_AFTER_REPLACING]: 'true' },
        HostConfig: recreatable(old.HostConfig),
        NetworkingConfig: { EndpointsConfig: sameEndpoints(old) },
      }),
    });
    expect(made.status).toBe(201);
    expect((await fetch(`${engine}/containers/${old.Id}?force=1`, { method: 'DELETE' })).status).toBe(204);

    const changed = await setEnvironmentAndWait(site.admin, site.siteId, container.id, { MODE: 'after' });
    expect(changed.outputs).toContain(
      'Finishing the interrupted recreate of app3: app3.next takes its place',
    );
    const now = docker.container(changed.container.containerId);
    expect(now).toMatchObject({ name: 'app3', status: 'running' });
    expect(now.config.Env).toContain('MODE=after');
    expect(Object.values(now.networks)[0]).toMatchObject({ IPAddress: container.ipv4Address });
    expect((await fetch(`${engine}/containers/app3.next/json`)).status).toBe(404);
    expect(changed.container.status).toBe('running');
  });

  it('gives the container the IPv4 and MAC the manager allocated, in an engine network of the site subnet', async () => {
    const { status, outputs, container } = await createAndWait(site.admin, site.siteId, {
      hostname: 'net1',
      template: 'app:1',
    });
    expect(status, outputs.join('\n')).toBe('success');
    const endpoints = docker.container(container.containerId).networks;
    expect(Object.keys(endpoints)).toEqual(['fleet-10.0.0.0-24']);
    expect(endpoints['fleet-10.0.0.0-24']).toMatchObject({
      IPAddress: container.ipv4Address,
      MacAddress: container.macAddress.toLowerCase(),
    });
    expect(docker.store.networks.get('fleet-10.0.0.0-24')).toMatchObject({
      subnet: '10.0.0.0/24',
      gateway: '10.0.0.1',
    });

    // A recreate (new variables) keeps both.
    const changed = await setEnvironmentAndWait(site.admin, site.siteId, container.id, { MODE: 'x' });
    expect(docker.container(changed.container.containerId).networks['fleet-10.0.0.0-24']).toMatchObject({
      IPAddress: container.ipv4Address,
    });
  });

  it('limits the default 4 CPUs to the 2 a small Docker host has, with a warning, instead of failing', async () => {
    const { status, outputs, container } = await createAndWait(site.admin, site.siteId, {
      hostname: 'small1',
      template: 'app:1',
    });
    expect(status, outputs.join('\n')).toBe('success');
    expect(outputs).toContain(
      'Warning: 4 CPUs asked for, but node docker1 has 2; the container may use all 2.',
    );
    expect(docker.container(container.containerId).hostConfig.NanoCpus).toBe(2e9);
  });

  it("a new entrypoint runs alone (the image's Cmd is not passed to it); clearing it brings the image's back", async () => {
    const { status, container } = await createAndWait(site.admin, site.siteId, {
      hostname: 'app2',
      template: 'app:1',
    });
    expect(status).toBe('success');
    expect(docker.container(container.containerId).config.Cmd).toEqual(['/app']);

    const put = async (entrypoint: string) => {
      const response = await site.admin.put(`/sites/${site.siteId}/containers/${container.id}`, {
        entrypoint,
      });
      expect(await jobEnds(site.admin, response.body.data.jobId)).toBe('success');
      const shown = (await site.admin.get(`/sites/${site.siteId}/containers/${container.id}`)).body.data;
      return docker.container(shown.containerId).config;
    };
    const withEntrypoint = await put('/usr/bin/server --port 80');
    expect(withEntrypoint.Entrypoint).toEqual(['/usr/bin/server', '--port', '80']);
    expect(withEntrypoint.Cmd).toBeNull();

    const cleared = await put('');
    expect(cleared.Entrypoint).toBeNull();
    expect(cleared.Cmd).toEqual(['/app']);
  });
});

describe('containers on Podman nodes', () => {
  const podman = new DockerFake({ flavor: 'podman' });
  const site = fakeEngineSite(podman, 'podman1');

  it('recreates a container with a CPU limit (Podman reports it also as period and quota)', async () => {
    const { status, container } = await createAndWait(site.admin, site.siteId, {
      hostname: 'pod1',
      template: 'app:1',
    });
    expect(status).toBe('success');
    const changed = await setEnvironmentAndWait(site.admin, site.siteId, container.id, { MODE: 'x' });
    expect(podman.container(changed.container.containerId).hostConfig).toMatchObject({
      NanoCpus: 4e9,
      CpuQuota: 400_000,
    });
  });

  it('changes CPUs and memory by recreating the container (Podman 4 cannot update one), at the same address', async () => {
    const { status, container } = await createAndWait(site.admin, site.siteId, {
      hostname: 'pod2',
      template: 'app:1',
    });
    expect(status).toBe('success');
    const { status: resized, outputs } = await resize(
      site.test,
      site.admin,
      site.siteId,
      'pod2',
      'memory',
      512,
    );
    expect(resized, outputs.join('\n')).toBe('success');
    expect(outputs).toContain('Recreating pod2 with the new resources');
    const now = (await site.admin.get(`/sites/${site.siteId}/containers/${container.id}`)).body.data;
    expect(now.containerId).not.toBe(container.containerId);
    const recreated = podman.container(now.containerId);
    expect(recreated.hostConfig).toMatchObject({ Memory: 512 * 1024 * 1024, NanoCpus: 4e9 });
    expect(recreated.status).toBe('running');
    expect(Object.values(recreated.networks)[0]).toMatchObject({ IPAddress: container.ipv4Address });
  });
});

/** Commands run in containers of engine nodes (the Docker fake's exec API, Docker's and Podman's words). */
describe.each(['docker', 'podman'] as const)('exec on %s engine nodes', (flavor) => {
  const fake = new DockerFake({ flavor });
  const site = fakeEngineSite(fake, `exec-${flavor}`);
  /** Runs a command in a new container and waits for its job: its status, output and result. */
  const execIn = async (hostname: string, body: Record<string, unknown>) => {
    const { container } = await createAndWait(site.admin, site.siteId, { hostname, template: 'app:1' });
    const queued = await site.admin.post(`/sites/${site.siteId}/containers/${container.id}/exec`, body);
    expect(queued.status, queued.text).toBe(202);
    const jobId = queued.body.data.jobId as number;
    return {
      status: await jobEnds(site.admin, jobId),
      output: await jobOutputs(site.admin, jobId),
      result: (await site.admin.get(`/jobs/${jobId}`)).body.data.result,
      container,
    };
  };

  it('logs stdout and stderr lines and records the exit code', async () => {
    const done = await execIn('exec1', { command: ['sh', '-c', 'echo out; echo err >&2; exit 3'] });
    expect(done.status).toBe('failure');
    expect(done.output).toEqual(
      execOutput("sh -c 'echo out; echo err >&2; exit 3'", ['out', 'err'], { exitCode: 3 }),
    );
    expect(done.result).toEqual({ exitCode: 3 });
  });

  it('stops waiting for a command past its timeout', async () => {
    const done = await execIn('exec2', { command: 'echo going; sleep 30', timeout: 1 });
    expect(done.status).toBe('failure');
    expect(done.output).toEqual(execOutput("sh -c 'echo going; sleep 30'", ['going'], { timeoutSeconds: 1 }));
    expect(done.result).toBeUndefined();
  });
});
