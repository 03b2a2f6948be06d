import { ConfigError, type EnvReader } from '@app/server-kit';
import { cleanAbsolutePath } from '../volumes/volume-paths.ts';

/** Settings of containers, their services and the outside systems they touch. */
export interface ContainersConfig {
  /** External ports handed to TCP/UDP services (inclusive). */
  transportPorts: { min: number; max: number };
  /** Base URL used for Docker Hub images (e.g. a pull-through mirror); default registry-1.docker.io. */
  registryMirror: string | undefined;
  /** Bound on one image-metadata lookup (token, manifests, config). */
  registryTimeoutMs: number;
  /** Cloudflare API v4 base URL (a fake in tests). */
  dnsProviderApiUrl: string;
  dnsTimeoutMs: number;
  /** Where storages named by a node's volumeStorage are mounted (an absolute volumeStorage is used as is). */
  volumeStorageRoot: string;
  /** How long create and reconfigure jobs wait for the site agent to prepare the volumes. */
  volumeWaitMs: number;
  /** Re-read of the volumes while waiting, besides the wake-up on every configuration change. */
  volumePollMs: number;
  /** Browser terminals: closed after this long without a keystroke or output; at most this many per user. */
  terminal: { idleMs: number; maxPerUser: number };
}

function portRange(env: EnvReader, name: string, fallback: string) {
  const value = env.string(name, fallback);
  const match = /^(\d{1,5})\s*-\s*(\d{1,5})$/.exec(value);
  const min = Number(match?.[1]);
  const max = Number(match?.[2]);
  if (!match || min < 1 || max > 65535 || min > max) {
    throw new ConfigError(name, `expected "low-high" ports between 1 and 65535, got "${value}"`);
  }
  return { min, max };
}

export function readContainersConfig(env: EnvReader): ContainersConfig {
  const volumeStorageRoot = env.string('VOLUME_STORAGE_ROOT', '/mnt/pve');
  if (!cleanAbsolutePath(volumeStorageRoot)) {
    throw new ConfigError('VOLUME_STORAGE_ROOT', `expected an absolute path, got "${volumeStorageRoot}"`);
  }
  return {
    transportPorts: portRange(env, 'TRANSPORT_PORT_RANGE', '20000-29999'),
    registryMirror: env.url('REGISTRY_MIRROR')?.replace(/\/+$/, ''),
    registryTimeoutMs: env.int('REGISTRY_TIMEOUT_MS', 10_000, { min: 100 }),
    dnsProviderApiUrl: (env.url('DNS_PROVIDER_API_URL') ?? 'https://api.cloudflare.com/client/v4').replace(
      /\/+$/,
      '',
    ),
    dnsTimeoutMs: env.int('DNS_PROVIDER_TIMEOUT_MS', 10_000, { min: 100 }),
    volumeStorageRoot,
    volumeWaitMs: env.int('VOLUME_WAIT_S', 180, { min: 1 }) * 1000,
    volumePollMs: env.int('VOLUME_POLL_MS', 2000, { min: 50 }),
    terminal: {
      idleMs: env.int('TERMINAL_IDLE_TIMEOUT_S', 900, { min: 1 }) * 1000,
      maxPerUser: env.int('TERMINAL_MAX_SESSIONS', 5, { min: 1 }),
    },
  };
}
