import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerFake } from '@app/fakes';
import { adminClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { createAndWait, envVars, jobEnds, setEnvironmentAndWait } from './container-helpers.ts';

const IMAGE_ENV = ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', 'LANG=C.UTF-8'];
/** Docker appends the image's variables the container does not set; Podman and the fake put them first. */
const sorted = (env: string[] | undefined) => [...(env ?? [])].sort();

/** Containers through the containers API on a container-engine node (the Docker fake, over TCP). */
describe('containers on engine nodes', () => {
  let test: TestManager;
  let admin: ManagerClient;
  let docker: DockerFake;
  let siteId: number;

  beforeAll(async () => {
    docker = await new DockerFake().start();
    docker.addRemoteImage('app:1', { config: { Env: IMAGE_ENV, Cmd: ['/app'] } });
    test = await startFleetManager();
    admin = await adminClient(test);
    siteId = (await admin.post('/sites', siteInput({ name: 'Engine' }))).body.data.id;
    const node = await admin.post(`/sites/${siteId}/nodes`, {
      name: 'docker1',
      nodeType: 'engine',
      apiUrl: `http://127.0.0.1:${docker.port}`,
    });
    expect(node.status, node.text).toBe(201);
  });
  afterAll(async () => {
    await test.close();
    await docker.stop();
  });

  it("recreates a container with new variables over the image's env: PATH stays, removed ones go, overridden image ones come back", async () => {
    const { status, outputs, container } = await createAndWait(admin, siteId, {
      hostname: 'app1',
      template: 'app:1',
      environmentVars: envVars({ GREETING: 'hello', LANG: 'de_DE.UTF-8' }),
    });
    expect(status, outputs.join('\n')).toBe('success');
    expect(sorted(docker.container(container.containerId).config.Env)).toEqual(
      sorted([IMAGE_ENV[0]!, 'LANG=de_DE.UTF-8', 'GREETING=hello']),
    );

    // GREETING changes, LANG (an override of the image's) is dropped, MODE is new.
    const changed = await setEnvironmentAndWait(admin, siteId, container.id, {
      GREETING: 'hi',
      MODE: 'prod',
    });
    expect(changed.outputs).toContain('Recreating app1 with the new environment and entrypoint');
    const recreated = docker.container(changed.container.containerId);
    expect(recreated.id).not.toBe(container.containerId);
    expect(sorted(recreated.config.Env)).toEqual(sorted([...IMAGE_ENV, 'GREETING=hi', 'MODE=prod']));
    expect(recreated.status).toBe('running');

    // No user variables at all: the image's env stays.
    const cleared = await setEnvironmentAndWait(admin, siteId, container.id, {});
    expect(sorted(docker.container(cleared.container.containerId).config.Env)).toEqual(sorted(IMAGE_ENV));
  });

  it("a new entrypoint runs alone (the image's Cmd is not passed to it); clearing it brings the image's back", async () => {
    const { status, container } = await createAndWait(admin, siteId, { hostname: 'app2', template: 'app:1' });
    expect(status).toBe('success');
    expect(docker.container(container.containerId).config.Cmd).toEqual(['/app']);

    const put = async (entrypoint: string) => {
      const response = await admin.put(`/sites/${siteId}/containers/${container.id}`, { entrypoint });
      expect(await jobEnds(admin, response.body.data.jobId)).toBe('success');
      const shown = (await admin.get(`/sites/${siteId}/containers/${container.id}`)).body.data;
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
