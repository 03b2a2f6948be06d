import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerFake } from '@app/fakes';
import { adminClient, type ManagerClient, type TestManager } from './helpers.ts';
import { siteInput, startFleetManager } from './fleet-helpers.ts';
import { createAndWait } from './container-helpers.ts';
import { acceptedTerminal } from './terminal-client.ts';

/** The engine terminal's refusals, against the Docker fake (a shell itself is in the real-engine tests). */
describe('terminal on an engine node that refuses it', () => {
  const docker = new DockerFake({ cpus: 2 });
  let test: TestManager;
  let admin: ManagerClient;
  let siteId: number;

  beforeAll(async () => {
    await docker.start();
    docker.addRemoteImage('app:1', { config: { Cmd: ['/app'] } });
    test = await startFleetManager();
    admin = await adminClient(test);
    siteId = (await admin.post('/sites', siteInput())).body.data.id;
    const node = await admin.post(`/sites/${siteId}/nodes`, {
      name: 'docker1',
      nodeType: 'engine',
      apiUrl: `http://127.0.0.1:${docker.port}`,
    });
    expect(node.status, node.text).toBe(201);
  });
  afterAll(async () => {
    await test?.close();
    await docker.stop();
  });

  it("closes with 4502 and the engine's reason when the container is not running", async () => {
    const { status, container } = await createAndWait(admin, siteId, {
      hostname: 'down1',
      template: 'app:1',
    });
    expect(status).toBe('success');
    docker.exitContainer(container.containerId, 0);
    const terminal = await acceptedTerminal(
      test.baseUrl,
      `/sites/${siteId}/containers/${container.id}/terminal`,
      {
        client: admin,
      },
    );
    const closed = await terminal.closed;
    expect(closed.code).toBe(4502);
    expect(closed.exitReason).toMatch(/is not running/);
    expect(terminal.output).toContain(closed.exitReason);
  });
});
