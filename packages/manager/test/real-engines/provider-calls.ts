import { apiAtLeast } from '../../src/providers/engine/engine-client.ts';
import { MANAGED_LABEL, siteNetworkName } from '../../src/providers/engine/engine-network.ts';
import {
  recreatable,
  RUN_AFTER_REPLACING,
  sameEndpoints,
  type InspectedContainer,
} from '../../src/providers/engine/engine-provider.ts';
import type { Step } from './differential.ts';

/** The engine a sequence runs on, as the provider knows it. */
export interface CallEnv {
  podman: boolean;
  /** The negotiated API version. */
  version: string;
  /** The host's CPUs. */
  cpus: number;
  image: string;
  /** An image the registry does not have. */
  missingImage: string;
  /** `10.232.N`: the site's /24. */
  subnet: string;
  /** A host folder a container may bind. */
  bindDir: string;
}

const MiB = 1024 * 1024;
const networkOf = (env: CallEnv) => siteNetworkName(`${env.subnet}.0/24`);
const macOf = (last: number) => `02:00:0a:e8:00:${last.toString(16).padStart(2, '0')}`;
const nameOf = (suffix: string) => `df-${suffix}`;

/** The create body the provider sends (engine-provider.ts `create`), for a site container. */
export function createBody(
  env: CallEnv,
  options: { ip: string; mac: string; cores?: number; image?: string },
) {
  const network = networkOf(env);
  return {
    Image: options.image ?? env.image,
    Hostname: 'df-host',
    Env: ['GREETING=differential', 'EXTRA=1'],
    Entrypoint: ['sh', '-c', "trap 'exit 0' TERM; sleep 600 & wait"],
    Labels: { [MANAGED_LABEL]: 'true' },
    ...(apiAtLeast(env.version, '1.52') ? {} : { MacAddress: options.mac }),
    HostConfig: {
      Memory: 64 * MiB,
      MemorySwap: 128 * MiB,
      NanoCpus: (options.cores ?? 1) * 1e9,
      RestartPolicy: { Name: 'unless-stopped' },
      NetworkMode: network,
      Binds: [`${env.bindDir}:/data:rw`],
    },
    NetworkingConfig: {
      EndpointsConfig: {
        [network]: {
          IPAMConfig: { IPv4Address: options.ip },
          ...(env.podman || apiAtLeast(env.version, '1.44') ? { MacAddress: options.mac } : {}),
        },
      },
    },
  };
}

/** What the provider reads of an inspected container (reconfigure, and what the tests check). */
const readInspect = (env: CallEnv) => (body: unknown) => {
  const c = body as InspectedContainer & { HostConfig: Record<string, unknown> };
  const endpoint = c.NetworkSettings?.Networks?.[networkOf(env)];
  // As a recreate sends it back.
  const host = recreatable(c.HostConfig) as Record<string, unknown>;
  return {
    Name: c.Name,
    Running: c.State.Running,
    Status: c.State.Status,
    Image: c.Config.Image,
    Hostname: c.Config.Hostname,
    Env: [...(c.Config.Env ?? [])].sort(),
    Entrypoint: c.Config.Entrypoint,
    managed: c.Config.Labels?.[MANAGED_LABEL],
    host: {
      Memory: host.Memory,
      MemorySwap: host.MemorySwap,
      NanoCpus: host.NanoCpus,
      Binds: host.Binds,
      RestartPolicy: (host.RestartPolicy as { Name?: string } | undefined)?.Name,
      NetworkMode: host.NetworkMode,
      // The daemon's default ulimits come from a map: their order differs from run to run.
      Ulimits: host.Ulimits
        ? [...(host.Ulimits as { Name: string }[])].sort((a, b) => a.Name.localeCompare(b.Name))
        : null,
      CpuPeriod: host.CpuPeriod ?? null,
      CpuQuota: host.CpuQuota ?? null,
    },
    networks: Object.keys(c.NetworkSettings?.Networks ?? {}),
    IPv4Address: endpoint?.IPAMConfig?.IPv4Address || endpoint?.IPAddress,
    MacAddress: endpoint?.MacAddress,
  };
};

/** The provider's `instances`/`listForImport` of the containers this test made. */
const readList = (body: unknown) =>
  (
    body as Array<{
      Names: string[];
      State: string;
      Image: string;
      NetworkSettings?: { Networks?: Record<string, { MacAddress?: string; IPAddress?: string }> };
    }>
  )
    .filter((row) => row.Names.some((name) => name.startsWith('/df-')))
    .map((row) => {
      const network = Object.values(row.NetworkSettings?.Networks ?? {})[0];
      return {
        Names: row.Names,
        State: row.State === 'running' ? 'running' : 'stopped',
        Image: row.Image,
        MacAddress: network?.MacAddress?.toUpperCase() || null,
        IPAddress: network?.IPAddress || null,
      };
    });

const created = (body: unknown) => ({
  Id: /^[0-9a-f]{64}$/.test((body as { Id?: string }).Id ?? '') ? 'an id' : body,
});
const warnings = (body: unknown) => ({ Warnings: (body as { Warnings?: string[] | null }).Warnings ?? [] });
/** A pull's progress stream: the provider fails on an `error`/`errorDetail` line. */
const pullOutcome = (body: unknown) => ({
  streamError: /"error(Detail)?"/.test(typeof body === 'string' ? body : JSON.stringify(body)),
});

const pull = (image: string): Step => {
  const colon = image.lastIndexOf(':');
  const query = `fromImage=${encodeURIComponent(image.slice(0, colon))}&tag=${image.slice(colon + 1)}`;
  return { what: `pull ${image}`, method: 'POST', path: `/images/create?${query}`, read: pullOutcome };
};

const ensureNetwork = (env: CallEnv): Step[] => [
  { what: 'network missing', method: 'GET', path: `/networks/${networkOf(env)}` },
  {
    what: 'network create',
    method: 'POST',
    path: '/networks/create',
    body: {
      Name: networkOf(env),
      CheckDuplicate: true,
      Driver: 'bridge',
      Labels: { [MANAGED_LABEL]: 'true' },
      IPAM: { Config: [{ Subnet: `${env.subnet}.0/24`, Gateway: `${env.subnet}.1` }] },
    },
  },
];
const removeNetwork = (env: CallEnv): Step => ({
  what: 'network delete',
  method: 'DELETE',
  path: `/networks/${networkOf(env)}`,
});

const create = (env: CallEnv, alias: string, options: Parameters<typeof createBody>[1]): Step => ({
  what: `create ${alias}`,
  method: 'POST',
  path: `/containers/create?name=${nameOf(alias)}`,
  body: createBody(env, options),
  save: alias,
  read: created,
});
const action = (alias: string, verb: 'start' | 'stop' | 'restart', query = ''): Step => ({
  what: `${verb} ${alias}`,
  method: 'POST',
  path: `/containers/{${alias}}/${verb}${query}`,
});
const inspect = (env: CallEnv, alias: string, keep?: string): Step => ({
  what: `inspect ${alias}`,
  method: 'GET',
  path: `/containers/{${alias}}/json`,
  read: readInspect(env),
  ...(keep ? { keep } : {}),
});
const remove = (alias: string, force = true): Step => ({
  what: `remove ${alias}${force ? '' : ' without force'}`,
  method: 'DELETE',
  path: `/containers/{${alias}}${force ? '?force=1&v=1' : ''}`,
});

/** A create's calls: the image pulled, the site network made first and removed at the end. */
const onSiteNetwork = (env: CallEnv, steps: Step[]): Step[] => [
  pull(env.image),
  ...ensureNetwork(env),
  ...steps,
  removeNetwork(env),
];

/**
 * An attached exec's answer (the multiplexed stream, read as text): the text of each stream. Their
 * frames interleave as the process writes, which between two pipes is not in a fixed order.
 */
const readStreams = (body: unknown) => {
  const bytes = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const streams: Record<number, string> = {};
  for (let at = 0; at + 8 <= bytes.length; at += 8 + bytes.readUInt32BE(at + 4)) {
    const payload = bytes.subarray(at + 8, at + 8 + bytes.readUInt32BE(at + 4)).toString();
    streams[bytes[at]!] = (streams[bytes[at]!] ?? '') + payload;
  }
  return streams;
};
const execCreate = (alias: string, container: string, cmd: string[]): Step => ({
  what: `exec create ${alias}`,
  method: 'POST',
  path: `/containers/{${container}}/exec`,
  body: { AttachStdin: false, AttachStdout: true, AttachStderr: true, Tty: false, Cmd: cmd },
  save: alias,
  read: created,
});

/** The call sequences the provider makes, and the refusals it may meet; each leaves nothing behind. */
export const SEQUENCES: Array<{ name: string; steps: (env: CallEnv) => Step[] }> = [
  {
    name: 'node: ping and info',
    steps: () => [
      {
        what: 'ping',
        method: 'GET',
        path: '/_ping',
        read: (body, headers) => ({
          body,
          apiVersion: typeof headers['api-version'],
          podman: 'libpod-api-version' in headers,
        }),
      },
      {
        what: 'info',
        method: 'GET',
        path: '/info',
        read: (body) => {
          const info = body as Record<string, unknown>;
          return {
            NCPU: info.NCPU,
            MemTotal: typeof info.MemTotal,
            Containers: typeof info.Containers,
            ContainersRunning: typeof info.ContainersRunning,
            Architecture: info.Architecture,
          };
        },
      },
    ],
  },
  {
    name: 'site network: made when missing, found after, a second create refused',
    steps: (env) => [
      ...ensureNetwork(env),
      {
        what: 'network inspect',
        method: 'GET',
        path: `/networks/${networkOf(env)}`,
        read: (body) => {
          const network = body as { Name: string; IPAM: { Config: unknown[] }; Labels: object };
          return { Name: network.Name, IPAM: network.IPAM.Config, Labels: network.Labels };
        },
      },
      ensureNetwork(env)[1]!,
      removeNetwork(env),
      ensureNetwork(env)[0]!,
    ],
  },
  {
    name: 'container life: create, start, inspect, list, stop, restart, update, remove',
    steps: (env) =>
      onSiteNetwork(env, [
        create(env, 'life', { ip: `${env.subnet}.130`, mac: macOf(0x30) }),
        action('life', 'start'),
        action('life', 'start'),
        { ...removeNetwork(env), what: 'network delete while in use' },
        inspect(env, 'life'),
        { what: 'list', method: 'GET', path: '/containers/json?all=1', read: readList },
        action('life', 'stop', '?t=10'),
        action('life', 'stop', '?t=10'),
        inspect(env, 'life'),
        action('life', 'start'),
        action('life', 'restart', '?t=10'),
        {
          what: 'update resources',
          method: 'POST',
          path: '/containers/{life}/update',
          body: { Memory: 96 * MiB, MemorySwap: 160 * MiB, NanoCpus: 1e9 / 2 },
          read: warnings,
        },
        inspect(env, 'life'),
        remove('life'),
        remove('life'),
      ]),
  },
  {
    name: 'reconfigure: the replacement is made from the inspected config beside the running container, then takes its name',
    steps: (env) =>
      onSiteNetwork(env, [
        create(env, 'old', { ip: `${env.subnet}.131`, mac: macOf(0x31) }),
        action('old', 'start'),
        inspect(env, 'old', 'old'),
        {
          what: 'create the replacement (same address and MAC) while the container runs',
          method: 'POST',
          path: `/containers/create?name=${nameOf('old')}.next`,
          makeBody: (kept) => {
            const inspected = kept.get('old') as InspectedContainer;
            return {
              ...inspected.Config,
              Labels: { ...inspected.Config.Labels, [RUN_AFTER_REPLACING]: 'true' },
              Env: ['GREETING=changed'],
              Entrypoint: ['sh', '-c', "trap 'exit 0' TERM; sleep 601 & wait"],
              Cmd: null,
              HostConfig: recreatable(inspected.HostConfig),
              NetworkingConfig: { EndpointsConfig: sameEndpoints(inspected) },
            };
          },
          save: 'new',
          read: created,
        },
        remove('old'),
        {
          what: 'rename the replacement',
          method: 'POST',
          path: `/containers/{new}/rename?name=${nameOf('old')}`,
        },
        action('new', 'start'),
        inspect(env, 'new'),
        remove('new'),
      ]),
  },
  {
    name: 'exec: create, start attached without a terminal, inspect the exit code; refused without a command, unknown, in a stopped container',
    steps: (env) =>
      onSiteNetwork(env, [
        create(env, 'exec', { ip: `${env.subnet}.141`, mac: macOf(0x41) }),
        action('exec', 'start'),
        execCreate('run', 'exec', ['sh', '-c', 'echo out; echo err >&2; exit 3']),
        {
          what: 'exec start run',
          method: 'POST',
          path: '/exec/{run}/start',
          body: { Detach: false, Tty: false },
          read: readStreams,
        },
        {
          what: 'exec inspect run',
          method: 'GET',
          path: '/exec/{run}/json',
          read: (body) => ({ ExitCode: (body as { ExitCode: number | null }).ExitCode }),
        },
        { ...execCreate('none', 'exec', []), what: 'exec create without a command' },
        { what: 'exec inspect unknown', method: 'GET', path: '/exec/unknown/json' },
        action('exec', 'stop', '?t=0'),
        { ...execCreate('late', 'exec', ['true']), what: 'exec create in a stopped container' },
        remove('exec'),
      ]),
  },
  {
    name: 'refused: more CPUs than the host has',
    steps: (env) =>
      onSiteNetwork(env, [
        create(env, 'cpus', { ip: `${env.subnet}.132`, mac: macOf(0x32), cores: env.cpus + 1 }),
        remove('cpus'),
      ]),
  },
  {
    name: 'refused: a name in use',
    steps: (env) =>
      onSiteNetwork(env, [
        create(env, 'twin', { ip: `${env.subnet}.133`, mac: macOf(0x33) }),
        { ...create(env, 'twin', { ip: `${env.subnet}.134`, mac: macOf(0x34) }), save: 'twin2' },
        remove('twin'),
      ]),
  },
  {
    name: 'refused: an address outside the subnet, an address taken',
    steps: (env) =>
      onSiteNetwork(env, [
        create(env, 'outside', { ip: '10.99.0.5', mac: macOf(0x35) }),
        action('outside', 'start'),
        remove('outside'),
        create(env, 'first', { ip: `${env.subnet}.136`, mac: macOf(0x36) }),
        action('first', 'start'),
        create(env, 'second', { ip: `${env.subnet}.136`, mac: macOf(0x37) }),
        action('second', 'start'),
        remove('second'),
        remove('first'),
      ]),
  },
  {
    name: 'refused: an image the registry does not have',
    steps: (env) => [
      pull(env.missingImage),
      ...ensureNetwork(env),
      create(env, 'noimage', { ip: `${env.subnet}.138`, mac: macOf(0x38), image: env.missingImage }),
      removeNetwork(env),
    ],
  },
  {
    name: 'refused: removing a running container without force',
    steps: (env) =>
      onSiteNetwork(env, [
        create(env, 'busy', { ip: `${env.subnet}.139`, mac: macOf(0x39) }),
        action('busy', 'start'),
        remove('busy', false),
        inspect(env, 'busy'),
        remove('busy'),
      ]),
  },
  {
    name: 'refused: bad JSON, invalid fields, a missing network or container',
    steps: (env) => {
      const body = createBody(env, { ip: `${env.subnet}.140`, mac: macOf(0x40) });
      const path = `/containers/create?name=${nameOf('bad')}`;
      return [
        pull(env.image),
        ...ensureNetwork(env),
        { what: 'malformed JSON', method: 'POST', path, body: '{"Image": ', save: 'bad' },
        {
          what: 'unknown restart policy',
          method: 'POST',
          path,
          body: { ...body, HostConfig: { ...body.HostConfig, RestartPolicy: { Name: 'sometimes' } } },
          save: 'bad',
        },
        {
          what: 'memory below the minimum',
          method: 'POST',
          path,
          body: { ...body, HostConfig: { ...body.HostConfig, Memory: 4 * MiB, MemorySwap: 8 * MiB } },
          save: 'bad',
        },
        {
          what: 'no such network',
          method: 'POST',
          path,
          body: {
            ...body,
            HostConfig: { ...body.HostConfig, NetworkMode: 'fleet-missing' },
            NetworkingConfig: undefined,
          },
          save: 'bad',
        },
        remove('bad'),
        { what: 'start a missing container', method: 'POST', path: '/containers/df-nothing/start' },
        { what: 'inspect a missing container', method: 'GET', path: '/containers/df-nothing/json' },
        removeNetwork(env),
      ];
    },
  },
];
