/**
 * Runs one fake as a standalone demo process:
 *   tsx packages/fakes/src/cli.ts proxmox --port 8006 --tls
 *   tsx packages/fakes/src/cli.ts docker --port 2375 --socket /tmp/fake-docker.sock [--arch aarch64]
 *   tsx packages/fakes/src/cli.ts registry --port 5000
 *   tsx packages/fakes/src/cli.ts dns --port 8787 --zone example.com
 */
import { parseArgs } from 'node:util';
import { CloudflareFake } from './dns/index.ts';
import { DockerFake } from './docker/index.ts';
import { ProxmoxFake } from './proxmox/index.ts';
import { RegistryFake } from './registry/index.ts';
import type { FakeServer } from './shared/fake-server.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    tls: { type: 'boolean', default: false },
    socket: { type: 'string' },
    token: { type: 'string' },
    zone: { type: 'string', multiple: true },
    node: { type: 'string', multiple: true },
    podman: { type: 'boolean', default: false },
    arch: { type: 'string' },
  },
});

const kind = positionals[0];
const common = { host: values.host, port: Number(values.port), tls: values.tls };
const lines: string[] = [];
let fake: FakeServer;

switch (kind) {
  case 'proxmox': {
    const token = values.token ?? 'root@pam!fake=00000000-0000-4000-8000-000000000000';
    const [id, secret] = [token.slice(0, token.indexOf('=')), token.slice(token.indexOf('=') + 1)];
    fake = new ProxmoxFake({
      ...common,
      nodes: values.node ?? ['pve'],
      tokens: { [id]: secret },
      users: { 'root@pam': 'fake' },
      taskDurationMs: 1500,
    });
    lines.push(`API token: PVEAPIToken=${id}=${secret}`, 'Ticket login: root@pam / fake');
    break;
  }
  case 'docker': {
    const docker = new DockerFake({
      ...common,
      socketPath: values.socket,
      flavor: values.podman ? 'podman' : 'docker',
      pullLineDelayMs: 50,
      architecture: values.arch,
    });
    docker.addRemoteImage('nginx:latest', {
      config: { ExposedPorts: { '80/tcp': {} }, Cmd: ['nginx', '-g', 'daemon off;'] },
    });
    docker.addRemoteImage('alpine:latest');
    fake = docker;
    lines.push('Pullable images: nginx:latest, alpine:latest');
    break;
  }
  case 'registry': {
    const registry = new RegistryFake(common);
    registry.addImage('library/nginx', 'latest', {
      platforms: [
        { architecture: 'amd64', os: 'linux' },
        { architecture: 'arm64', os: 'linux', variant: 'v8' },
      ],
      config: {
        ExposedPorts: { '80/tcp': {} },
        Entrypoint: ['/docker-entrypoint.sh'],
        Cmd: ['nginx', '-g', 'daemon off;'],
      },
    });
    fake = registry;
    lines.push('Images: library/nginx:latest (amd64, arm64)');
    break;
  }
  case 'dns': {
    const token = values.token ?? 'fake-cloudflare-token-0000000000000000000';
    fake = new CloudflareFake({ ...common, tokens: [token], zones: values.zone ?? ['example.com'] });
    lines.push(`Authorization: Bearer ${token}`, `Zones: ${(values.zone ?? ['example.com']).join(', ')}`);
    break;
  }
  default:
    console.error(
      'usage: cli.ts proxmox|docker|registry|dns [--port N] [--host H] [--tls] [--socket PATH] [--token T] [--zone Z] [--node N] [--podman] [--arch MACHINE]',
    );
    process.exit(2);
}

await fake.start();
console.log(
  `${kind} fake listening on ${fake.url}${fake.socketPath ? ` and unix://${fake.socketPath}` : ''}`,
);
for (const line of lines) console.log(`  ${line}`);
const shutdown = () => void fake.stop().then(() => process.exit(0));
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
