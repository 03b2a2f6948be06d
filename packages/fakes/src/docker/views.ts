import { FakeHttpError } from '../shared/types.ts';
import type { DockerContainer } from './containers.ts';
import { humanDuration } from './format.ts';

/** `GET /containers/{id}/json` */
export function inspectContainer(c: DockerContainer): Record<string, unknown> {
  const running = c.status === 'running';
  const [path, ...args] = [...(c.config.Entrypoint ?? []), ...(c.config.Cmd ?? [])];
  const bridge = c.networks.bridge;
  return {
    Id: c.id,
    Created: c.created,
    Path: path ?? '',
    Args: args,
    State: {
      Status: c.status,
      Running: running,
      Paused: c.status === 'paused',
      Restarting: c.status === 'restarting',
      OOMKilled: false,
      Dead: c.status === 'dead',
      Pid: c.pid,
      ExitCode: c.exitCode,
      Error: '',
      StartedAt: c.startedAt,
      FinishedAt: c.finishedAt,
    },
    Image: c.image.id,
    ResolvConfPath: `/var/lib/docker/containers/${c.id}/resolv.conf`,
    HostnamePath: `/var/lib/docker/containers/${c.id}/hostname`,
    HostsPath: `/var/lib/docker/containers/${c.id}/hosts`,
    LogPath: `/var/lib/docker/containers/${c.id}/${c.id}-json.log`,
    Name: `/${c.name}`,
    RestartCount: c.restartCount,
    Driver: 'overlay2',
    Platform: 'linux',
    MountLabel: '',
    ProcessLabel: '',
    AppArmorProfile: 'docker-default',
    ExecIDs: null,
    HostConfig: c.hostConfig,
    GraphDriver: { Name: 'overlay2', Data: {} },
    Mounts: mounts(c),
    Config: c.config,
    NetworkSettings: {
      Bridge: '',
      SandboxID: running ? c.id.split('').reverse().join('') : '',
      SandboxKey: running ? `/var/run/docker/netns/${c.id.slice(0, 12)}` : '',
      Ports: running ? ports(c) : {},
      HairpinMode: false,
      LinkLocalIPv6Address: '',
      LinkLocalIPv6PrefixLen: 0,
      SecondaryIPAddresses: null,
      SecondaryIPv6Addresses: null,
      EndpointID: bridge?.EndpointID ?? '',
      Gateway: bridge?.Gateway ?? '',
      GlobalIPv6Address: '',
      GlobalIPv6PrefixLen: 0,
      IPAddress: bridge?.IPAddress ?? '',
      IPPrefixLen: bridge?.IPPrefixLen ?? 0,
      IPv6Gateway: '',
      MacAddress: bridge?.MacAddress ?? '',
      Networks: networks(c),
    },
  };
}

/** One row of `GET /containers/json`. */
export function listContainer(c: DockerContainer): Record<string, unknown> {
  const command = [...(c.config.Entrypoint ?? []), ...(c.config.Cmd ?? [])]
    .map((a) => (/\s/.test(a) ? `'${a}'` : a))
    .join(' ');
  const portRows = Object.entries(
    (c.hostConfig.PortBindings ?? {}) as Record<string, { HostIp?: string; HostPort?: string }[] | null>,
  ).flatMap(([key, bindings]) => {
    const [port, type] = key.split('/');
    if (c.status !== 'running' || !bindings?.length)
      return [{ PrivatePort: Number(port), Type: type ?? 'tcp' }];
    return bindings.map((b) => ({
      IP: b.HostIp || '0.0.0.0',
      PrivatePort: Number(port),
      PublicPort: Number(b.HostPort),
      Type: type ?? 'tcp',
    }));
  });
  return {
    Id: c.id,
    Names: [`/${c.name}`],
    Image: c.imageRef,
    ImageID: c.image.id,
    Command: command,
    Created: Math.floor(c.createdMs / 1000),
    Ports: portRows,
    Labels: c.config.Labels ?? {},
    State: c.status,
    Status: statusText(c),
    HostConfig: { NetworkMode: String(c.hostConfig.NetworkMode ?? 'bridge') },
    NetworkSettings: { Networks: networks(c) },
    Mounts: mounts(c),
  };
}

export function statusText(c: DockerContainer): string {
  if (c.status === 'running') return `Up ${humanDuration(Date.now() - c.startedMs)}`;
  if (c.status === 'paused') return `Up ${humanDuration(Date.now() - c.startedMs)} (Paused)`;
  if (c.status === 'exited') return `Exited (${c.exitCode}) ${humanDuration(Date.now() - c.finishedMs)} ago`;
  if (c.status === 'created') return 'Created';
  return c.status.charAt(0).toUpperCase() + c.status.slice(1);
}

function networks(c: DockerContainer): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(c.networks).map(([name, e]) => [
      name,
      {
        ...e,
        Links: null,
        DriverOpts: null,
        IPv6Gateway: '',
        GlobalIPv6Address: '',
        GlobalIPv6PrefixLen: 0,
        DNSNames: e.IPAddress ? [c.name, c.id.slice(0, 12)] : null,
      },
    ]),
  );
}

function ports(c: DockerContainer): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(c.config.ExposedPorts ?? {})) result[key] = null;
  for (const [key, bindings] of Object.entries(
    (c.hostConfig.PortBindings ?? {}) as Record<string, { HostIp?: string; HostPort?: string }[] | null>,
  )) {
    result[key] = (bindings ?? []).map((b) => ({
      HostIp: b.HostIp || '0.0.0.0',
      HostPort: b.HostPort ?? '',
    }));
  }
  return result;
}

function mounts(c: DockerContainer): unknown[] {
  const binds = (c.hostConfig.Binds as string[] | null | undefined) ?? [];
  return binds.map((bind) => {
    const [source = '', destination = '', mode = ''] = bind.split(':');
    const isVolume = !source.startsWith('/');
    return {
      Type: isVolume ? 'volume' : 'bind',
      ...(isVolume ? { Name: source, Driver: 'local' } : {}),
      Source: isVolume ? `/var/lib/docker/volumes/${source}/_data` : source,
      Destination: destination,
      Mode: mode,
      RW: !mode.split(',').includes('ro'),
      Propagation: isVolume ? '' : 'rprivate',
    };
  });
}

/** `filters` of `GET /containers/json`, in the map or the legacy array form. */
export function parseFilters(raw: string | null): Map<string, string[]> {
  const result = new Map<string, string[]>();
  if (!raw) return result;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new FakeHttpError(400, `invalid filter: ${raw}`);
  }
  const allowed = [
    'ancestor',
    'before',
    'expose',
    'exited',
    'health',
    'id',
    'isolation',
    'is-task',
    'label',
    'name',
    'network',
    'publish',
    'since',
    'status',
    'volume',
  ];
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (!allowed.includes(key)) throw new FakeHttpError(400, `invalid filter '${key}'`);
    result.set(key, Array.isArray(value) ? value.map(String) : Object.keys(value as object));
  }
  return result;
}

export function matchesFilters(c: DockerContainer, filters: Map<string, string[]>): boolean {
  for (const [key, values] of filters) {
    const test = (v: string): boolean => {
      if (key === 'status') return c.status === v;
      if (key === 'id') return c.id.startsWith(v);
      if (key === 'name') return new RegExp(v.replace(/^\//, '')).test(c.name);
      if (key === 'ancestor') return c.imageRef === v || c.image.repoTags.includes(v) || c.image.id === v;
      if (key === 'exited') return c.status === 'exited' && c.exitCode === Number(v);
      if (key === 'network') return Object.keys(c.networks).includes(v);
      if (key === 'label') {
        const [k, ...rest] = v.split('=');
        const labels = c.config.Labels ?? {};
        return rest.length ? labels[k!] === rest.join('=') : k! in labels;
      }
      return true;
    };
    // Label filters must all match; the other keys match any of their values.
    const ok = key === 'label' ? values.every(test) : values.some(test);
    if (!ok) return false;
  }
  return true;
}
