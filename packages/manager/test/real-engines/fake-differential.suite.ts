import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DockerFake } from '@app/fakes';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { siteNetworkName } from '../../src/providers/engine/engine-network.ts';
import { runSequence, type Target } from './differential.ts';
import { engineCall } from './engine-api.ts';
import { SEQUENCES, type CallEnv } from './provider-calls.ts';
import { TEST_IMAGE } from './test-image.ts';

const { engines, registry, image } = inject('realEngines');

/** Removes what a sequence may have left on a real engine: containers named `df-…` and the network. */
async function sweep(socket: string, subnet: string) {
  const listed = await engineCall(socket, 'GET', '/containers/json?all=1');
  for (const container of listed.body as Array<{ Id: string; Names: string[] }>) {
    if (container.Names.some((name) => name.startsWith('/df-')))
      await engineCall(socket, 'DELETE', `/containers/${container.Id}?force=1&v=1`);
  }
  await engineCall(socket, 'DELETE', `/networks/${siteNetworkName(`${subnet}.0/24`)}`);
}

describe.each(engines.map((engine, index) => ({ ...engine, subnet: `10.232.${index + 1}` })))(
  'the Docker fake answers the provider as real $name does',
  ({ name, socket: realSocket, subnet }) => {
    const podman = name === 'podman';
    const folder = mkdtempSync(join(tmpdir(), 'fleet-test-differential-'));
    let fake: DockerFake;
    let real: Target;
    let env: CallEnv;

    beforeAll(async () => {
      const ping = await engineCall(realSocket, 'GET', '/_ping');
      const version = String(ping.headers['api-version']);
      const info = (await engineCall(realSocket, 'GET', '/info')).body as { NCPU: number };
      real = { socket: realSocket, version };
      fake = new DockerFake({
        socketPath: join(folder, 'fake.sock'),
        flavor: podman ? 'podman' : 'docker',
        apiVersion: version,
        cpus: info.NCPU,
        // What scripts/ci/engine.sh and services.ts configure both engines with.
        ulimits: [
          { Name: 'nofile', Soft: 1024, Hard: 1024 },
          { Name: 'nproc', Soft: 4096, Hard: 4096 },
        ],
      });
      fake.addRemoteImage(image, {
        config: {
          Env: Object.entries(TEST_IMAGE.env).map(([key, value]) => `${key}=${value}`),
          ExposedPorts: { [`${TEST_IMAGE.httpPort}/tcp`]: {}, [`${TEST_IMAGE.tcpPort}/tcp`]: {} },
          Volumes: { [TEST_IMAGE.volume]: {} },
        },
      });
      await fake.start();
      env = {
        podman,
        version,
        cpus: info.NCPU,
        image,
        missingImage: `${registry}/fleet-test/missing:1`,
        subnet,
        bindDir: folder,
      };
    });
    afterEach(() => sweep(realSocket, subnet));
    afterAll(async () => {
      await fake?.stop();
      rmSync(folder, { recursive: true, force: true });
    });

    it.each(SEQUENCES)('$name', async ({ steps }) => {
      const expected = await runSequence(real, steps(env));
      const answered = await runSequence({ socket: fake.socketPath!, version: env.version }, steps(env));
      expect(answered.seen).toEqual(expected.seen);
    });
  },
);
