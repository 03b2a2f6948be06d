import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerFake } from '../src/index.ts';
import { demux, DockerClient } from './docker-client.ts';

interface Inspect {
  Name: string;
  Path: string;
  State: Record<string, unknown>;
  Config: { Env: string[]; Labels: Record<string, string> };
  NetworkSettings: { Networks: Record<string, unknown>; Ports: Record<string, unknown> };
}

describe('Docker Engine fake', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docker-fake-'));
  const fake = new DockerFake({ socketPath: join(dir, 'docker.sock'), pullLineDelayMs: 0 });
  let sock: DockerClient;
  let tcp: DockerClient;

  beforeAll(async () => {
    await fake.start();
    fake.addRemoteImage('nginx:1.27', {
      config: {
        Env: ['PATH=/usr/bin', 'NGINX_VERSION=1.27.3'],
        Entrypoint: ['/docker-entrypoint.sh'],
        Cmd: ['nginx', '-g', 'daemon off;'],
        ExposedPorts: { '80/tcp': {} },
        Labels: { maintainer: 'NGINX Docker Maintainers' },
      },
    });
    sock = new DockerClient({ socketPath: fake.socketPath! });
    tcp = new DockerClient({ baseUrl: fake.url });
  });
  afterAll(async () => {
    await fake.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers _ping and version with the engine headers on both transports', async () => {
    const ping = await sock.call('GET', '/_ping');
    expect([ping.status, ping.raw.toString()]).toEqual([200, 'OK']);
    expect(ping.headers['api-version']).toBe('1.47');
    expect(ping.headers.server).toBe('Docker/27.5.1 (linux)');
    const head = await new DockerClient({ baseUrl: fake.url }, '').call('HEAD', '/_ping');
    expect([head.status, head.raw.length]).toEqual([200, 0]);
    const version = await tcp.call('GET', '/version');
    expect(version.json()).toMatchObject({ ApiVersion: '1.47', MinAPIVersion: '1.24', Os: 'linux' });
    const tooNew = await new DockerClient({ baseUrl: fake.url }, '/v1.99').call('GET', '/version');
    expect([tooNew.status, tooNew.json()]).toEqual([
      400,
      { message: 'client version 1.99 is too new. Maximum supported API version is 1.47' },
    ]);
    const info = await sock.call('GET', '/info');
    expect(info.json()).toMatchObject({
      OSType: 'linux',
      Driver: 'overlay2',
      Swarm: { LocalNodeState: 'inactive' },
    });
    expect((await tcp.call('GET', '/nope')).json()).toEqual({ message: 'page not found' });
  });

  it('streams a pull, then create → start → inspect → list over the unix socket', async () => {
    const pull = await sock.pull('nginx', '1.27');
    expect(pull.status).toBe(200);
    expect(pull.lines[0]).toEqual({ status: 'Pulling from library/nginx', id: '1.27' });
    expect(pull.lines.some((l) => l.status === 'Pull complete')).toBe(true);
    expect(pull.lines.at(-1)).toEqual({ status: 'Status: Downloaded newer image for nginx:1.27' });
    const again = await sock.pull('nginx', '1.27');
    expect(again.lines.at(-1)).toEqual({ status: 'Status: Image is up to date for nginx:1.27' });

    const image = await sock.call('GET', '/images/nginx:1.27/json');
    expect(image.json()).toMatchObject({
      RepoTags: ['nginx:1.27'],
      Config: { ExposedPorts: { '80/tcp': {} } },
    });

    const created = await sock.call('POST', '/containers/create?name=web', {
      Image: 'nginx:1.27',
      Env: ['MODE=prod'],
      Labels: { app: 'web' },
      HostConfig: { PortBindings: { '80/tcp': [{ HostIp: '', HostPort: '8080' }] }, Memory: 536870912 },
    });
    expect(created.status).toBe(201);
    const { Id } = created.json<{ Id: string; Warnings: unknown }>();
    expect(Id).toMatch(/^[0-9a-f]{64}$/);
    expect((await sock.call('POST', `/containers/${Id}/start`)).status).toBe(204);
    expect((await sock.call('POST', '/containers/web/start')).status).toBe(304);

    const inspect = (await sock.call('GET', '/containers/web/json')).json<Inspect>();
    expect(inspect.Name).toBe('/web');
    expect(inspect.State).toMatchObject({ Status: 'running', Running: true, ExitCode: 0 });
    expect(inspect.Config.Env).toEqual(['PATH=/usr/bin', 'NGINX_VERSION=1.27.3', 'MODE=prod']);
    expect(inspect.Config.Labels).toEqual({ maintainer: 'NGINX Docker Maintainers', app: 'web' });
    expect(inspect.Path).toBe('/docker-entrypoint.sh');
    expect(inspect.NetworkSettings.Networks.bridge).toMatchObject({
      IPAddress: '172.17.0.2',
      Gateway: '172.17.0.1',
      IPPrefixLen: 16,
    });
    expect(inspect.NetworkSettings.Ports['80/tcp']).toEqual([{ HostIp: '0.0.0.0', HostPort: '8080' }]);

    const filters = encodeURIComponent(JSON.stringify({ label: ['app=web'] }));
    const list = (await sock.call('GET', `/containers/json?all=1&filters=${filters}`)).json<
      Record<string, unknown>[]
    >();
    expect(list).toEqual([
      expect.objectContaining({
        Id,
        Names: ['/web'],
        Image: 'nginx:1.27',
        State: 'running',
        Command: "/docker-entrypoint.sh nginx -g 'daemon off;'",
      }),
    ]);
    expect(list[0]!.Status).toMatch(/^Up /);
  });

  it('returns the real errors for conflicts, unknown images and running removal', async () => {
    const conflict = await sock.call('POST', '/containers/create?name=web', { Image: 'nginx:1.27' });
    expect(conflict.status).toBe(409);
    expect(conflict.json<{ message: string }>().message).toMatch(
      /^Conflict\. The container name "\/web" is already in use by container "[0-9a-f]{64}"\. You have to remove \(or rename\) that container to be able to reuse that name\.$/,
    );
    const noImage = await sock.call('POST', '/containers/create', { Image: 'redis' });
    expect([noImage.status, noImage.json()]).toEqual([404, { message: 'No such image: redis:latest' }]);
    const unknownRepo = await sock.pull('nosuch/thing', 'latest');
    expect(unknownRepo.status).toBe(404);
    expect(unknownRepo.lines[0]).toEqual({
      message:
        "pull access denied for nosuch/thing, repository does not exist or may require 'docker login': denied: requested access to the resource is denied",
    });
    const unknownTag = await sock.pull('nginx', 'nope');
    expect(unknownTag.lines[0]).toEqual({
      message: 'manifest for nginx:nope not found: manifest unknown: manifest unknown',
    });
    const busy = await sock.call('DELETE', '/containers/web');
    expect([busy.status, busy.json()]).toEqual([
      409,
      {
        message:
          'cannot remove container "/web": container is running: stop the container before removing or force remove',
      },
    ]);
    expect((await sock.call('GET', '/containers/nope/json')).json()).toEqual({
      message: 'No such container: nope',
    });
    const port = await sock.call('POST', '/containers/create?name=web2', {
      Image: 'nginx:1.27',
      HostConfig: { PortBindings: { '80/tcp': [{ HostPort: '8080' }] } },
    });
    const clash = await sock.call('POST', `/containers/${port.json<{ Id: string }>().Id}/start`);
    expect(clash.status).toBe(500);
    expect(clash.json<{ message: string }>().message).toMatch(
      /Bind for 0.0.0.0:8080 failed: port is already allocated$/,
    );
    const staticIp = await sock.call('POST', '/containers/create', {
      Image: 'nginx:1.27',
      NetworkingConfig: { EndpointsConfig: { bridge: { IPAMConfig: { IPv4Address: '172.17.0.9' } } } },
    });
    expect(staticIp.status).toBe(400);
  });

  it('places MAC addresses by API version and allows static IPs on user-defined networks', async () => {
    fake.addNetwork('lan', '10.1.2.0/24');
    const body = {
      Image: 'nginx:1.27',
      NetworkingConfig: {
        EndpointsConfig: {
          lan: { IPAMConfig: { IPv4Address: '10.1.2.50' }, MacAddress: '02:11:22:33:44:55' },
        },
      },
    };
    const old = new DockerClient({ socketPath: fake.socketPath! }, '/v1.43');
    const created = await old.call('POST', '/containers/create?name=mac-old', body);
    await old.call('POST', '/containers/mac-old/start');
    const oldNet = (await old.call('GET', '/containers/mac-old/json')).json<Inspect>().NetworkSettings
      .Networks;
    expect(oldNet.lan).toMatchObject({ IPAddress: '10.1.2.50', Gateway: '10.1.2.1', IPPrefixLen: 24 });
    expect((oldNet.lan as { MacAddress: string }).MacAddress).not.toBe('02:11:22:33:44:55');
    const fresh = new DockerClient({ socketPath: fake.socketPath! }, '/v1.44');
    await fresh.call('POST', '/containers/create?name=mac-new', {
      ...body,
      NetworkingConfig: { EndpointsConfig: { lan: { MacAddress: '02:11:22:33:44:55' } } },
    });
    const newNet = (await fresh.call('GET', '/containers/mac-new/json')).json<Inspect>().NetworkSettings
      .Networks;
    expect(newNet.lan).toMatchObject({ MacAddress: '02:11:22:33:44:55', IPAddress: '' });
    // Docker (20.10, API 1.41, seen) takes a network named only in NetworkMode, and looks for it at start.
    const unknown = await fresh.call('POST', '/containers/create?name=mac-nonet', {
      Image: 'nginx:1.27',
      HostConfig: { NetworkMode: 'nope' },
    });
    expect(unknown.status).toBe(201);
    const start = await fresh.call('POST', '/containers/mac-nonet/start');
    expect([start.status, start.json()]).toEqual([404, { message: 'network nope not found' }]);
    for (const name of ['mac-old', 'mac-new', 'mac-nonet'])
      await fresh.call('DELETE', `/containers/${name}?force=1`);
    expect(created.status).toBe(201);
  });

  it('refuses GPU device requests without the NVIDIA runtime', async () => {
    const res = await sock.call('POST', '/containers/create?name=gpu', {
      Image: 'nginx:1.27',
      HostConfig: {
        DeviceRequests: [
          { Driver: 'nvidia', Count: -1, DeviceIDs: null, Capabilities: [['gpu']], Options: {} },
        ],
      },
    });
    expect(res.status).toBe(201);
    const start = await sock.call('POST', '/containers/gpu/start');
    expect([start.status, start.json()]).toEqual([
      500,
      { message: 'could not select device driver "nvidia" with capabilities: [[gpu]]' },
    ]);
    await sock.call('DELETE', '/containers/gpu');
  });

  it('reports an in-stream pull error after progress began', async () => {
    fake.addRemoteImage('alpine:3.20');
    fake.failNextPull('unexpected EOF');
    const pull = await sock.pull('alpine', '3.20');
    expect(pull.status).toBe(200);
    expect(pull.lines.at(-1)).toEqual({
      errorDetail: { message: 'unexpected EOF' },
      error: 'unexpected EOF',
    });
  });

  it('serves multiplexed logs, stops, restarts and removes', async () => {
    fake.appendLog('web', 'hello out');
    fake.appendLog('web', 'oops', 2);
    const logs = await sock.call('GET', '/containers/web/logs?stdout=1&stderr=1');
    expect(logs.headers['content-type']).toBe('application/vnd.docker.multiplexed-stream');
    expect(demux(logs.raw)).toEqual([
      [1, 'hello out\n'],
      [2, 'oops\n'],
    ]);
    expect((await sock.call('POST', '/containers/web/stop?t=1')).status).toBe(204);
    expect((await sock.call('POST', '/containers/web/stop')).status).toBe(304);
    const stopped = (await sock.call('GET', '/containers/json?all=1')).json<
      { Names: string[]; Status: string }[]
    >();
    expect(stopped.find((c) => c.Names[0] === '/web')!.Status).toMatch(/^Exited \(0\) /);
    expect((await sock.call('GET', '/containers/json')).json()).toEqual([]);
    expect((await sock.call('POST', '/containers/web/restart')).status).toBe(204);
    expect((await sock.call('DELETE', '/containers/web?force=1')).status).toBe(204);
    expect((await sock.call('GET', '/containers/web/json')).status).toBe(404);
  });

  it('supports latency, injected failures, request log per transport and unreachable mode', async () => {
    fake.clearRequests();
    fake.failNext(1, { path: '/v1.41/containers/json', status: 500, message: 'injected' });
    const failed = await sock.call('GET', '/containers/json');
    expect([failed.status, failed.json()]).toEqual([500, { message: 'injected' }]);
    await tcp.call('GET', '/_ping');
    expect(fake.requests.map((r) => r.transport)).toEqual(['unix', 'tcp']);
    await fake.setUnreachable(true);
    await expect(sock.call('GET', '/_ping')).rejects.toThrow();
    await expect(tcp.call('GET', '/_ping')).rejects.toThrow();
    await fake.setUnreachable(false);
    expect((await sock.call('GET', '/_ping')).status).toBe(200);
  });
});

describe('Docker fake, Podman flavour', () => {
  it('answers libpod ping with the Podman headers and Podman error bodies', async () => {
    const fake = await new DockerFake({ flavor: 'podman' }).start();
    try {
      const ping = await new DockerClient({ baseUrl: fake.url }, '/v4.0.0').call('GET', '/libpod/_ping');
      expect([ping.status, ping.raw.toString()]).toEqual([200, 'OK']);
      expect(ping.headers['libpod-api-version']).toBe('5.4.0');
      expect(ping.headers['api-version']).toBe('1.41');
      const missing = await new DockerClient({ baseUrl: fake.url }).call('GET', '/containers/x/json');
      expect(missing.json()).toEqual({
        cause: 'no such container',
        message: 'no container with name or ID "x" found: no such container',
        response: 404,
      });
    } finally {
      await fake.stop();
    }
  });
});

describe('Docker fake, host architecture', () => {
  it("reports it in the kernel's name on Docker, in Go's on Podman, and pulls images of it", async () => {
    const docker = await new DockerFake({ architecture: 'aarch64', pullLineDelayMs: 0 }).start();
    const podman = await new DockerFake({ flavor: 'podman', architecture: 'aarch64' }).start();
    try {
      const client = new DockerClient({ baseUrl: docker.url });
      expect((await client.call('GET', '/info')).json()).toMatchObject({
        Architecture: 'aarch64',
        KernelVersion: '6.1.0-28-arm64',
      });
      expect((await client.call('GET', '/version')).json()).toMatchObject({ Arch: 'arm64' });
      docker.addRemoteImage('alpine:3');
      expect((await client.pull('alpine', '3')).status).toBe(200);
      expect((await client.call('GET', '/images/alpine:3/json')).json()).toMatchObject({
        Architecture: 'arm64',
      });
      const info = (await new DockerClient({ baseUrl: podman.url }).call('GET', '/info')).json();
      expect(info).toMatchObject({ Architecture: 'arm64' });
      const plain = await new DockerFake().start();
      try {
        expect((await new DockerClient({ baseUrl: plain.url }).call('GET', '/info')).json()).toMatchObject({
          Architecture: 'x86_64',
        });
      } finally {
        await plain.stop();
      }
    } finally {
      await Promise.all([docker.stop(), podman.stop()]);
    }
  });
});
