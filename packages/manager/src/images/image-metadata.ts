import type { FastifyBaseLogger } from 'fastify';
import {
  badRequest,
  effectivePort,
  GuardedClient,
  HostAllowlist,
  hostRefusalReason,
  OutboundError,
} from '@app/server-kit';
import type { ContainersConfig } from '../containers/containers-config.ts';
import { ENV_LIMITS } from '../containers/container-rules.ts';
import type { SettingsService } from '../settings/settings-service.ts';
import { isTemplateVolume, parseImageReference } from './image-reference.ts';
import { RegistryClient, type ImageConfig } from './registry-client.ts';
import { registryUnreachable } from './registry-errors.ts';
import { DEFAULT_PLATFORM, type Platform } from './platform.ts';

export interface ImageMetadata {
  ports: Array<{ port: number; protocol: 'tcp' | 'udp' }>;
  httpServices: Array<{ port: number; hostnameSuffix: string; requireAuth: boolean }>;
  /** Entrypoint followed by Cmd, as one command line; null when the image sets neither. */
  entrypoint: string | null;
  env: Array<{ key: string; value: string }>;
}

const LABEL =
  /^org\.mieweb\.opensource-server\.services\.http(?:\.([^.]+))?\.(port|hostnameSuffix|requireAuth)$/;

/** The strings of what should be a list of them (a registry may send anything). */
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

const quote = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * Image metadata for the new-container form, read from the image's registry — an address any
 * signed-in user chooses, so only through the guarded client: registries on loopback or private
 * networks only when allowlisted in the settings (the operator's REGISTRY_MIRROR counts as allowlisted).
 */
export class ImageMetadataService {
  constructor(
    private readonly config: ContainersConfig,
    private readonly settings: SettingsService,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** What the image of `platform` (picked from a manifest list / OCI index) declares. */
  async lookup(image: string, platform: Platform = DEFAULT_PLATFORM): Promise<ImageMetadata> {
    return describe(await this.imageConfig(image, platform));
  }

  /**
   * The VOLUME paths the image declares and the `User` it runs as (null: root); a hypervisor
   * template (`local:vztmpl/…`) declares none.
   */
  async volumeFacts(
    image: string,
    platform: Platform = DEFAULT_PLATFORM,
  ): Promise<{ paths: string[]; user: string | null }> {
    if (isTemplateVolume(image)) return { paths: [], user: null };
    const config = await this.imageConfig(image, platform);
    return {
      paths: Object.keys(config.Volumes ?? {}),
      user: typeof config.User === 'string' && config.User.trim() ? config.User : null,
    };
  }

  /**
   * 400 when the image's registry is one users may not reach (loopback, private, … by address or by
   * what its name resolves to now) and not allowlisted: the node would pull from there on the user's
   * behalf. Hypervisor templates and references that do not parse are the node's to judge.
   */
  async assertPullable(image: string): Promise<void> {
    if (isTemplateVolume(image)) return;
    let registry: URL;
    try {
      registry = new URL(parseImageReference(image, this.config.registryMirror).baseUrl);
    } catch {
      return;
    }
    if ((await this.allowlist()).allows(registry.hostname, effectivePort(registry))) return;
    const reason = await hostRefusalReason(registry.hostname);
    if (!reason) return;
    this.log.info({ image, reason }, 'image registry refused for a container');
    throw badRequest(
      `The image ${image} is on a registry in a loopback or private network (${registry.host}); an ` +
        'administrator must add it to the registry allowlist in the settings first.',
      { template: 'names a private registry that is not on the registry allowlist' },
    );
  }

  private async imageConfig(image: string, platform: Platform): Promise<ImageConfig> {
    const reference = parseImageReference(image, this.config.registryMirror);
    const client = new GuardedClient({ allowlist: await this.allowlist() });
    try {
      const signal = AbortSignal.timeout(this.config.registryTimeoutMs);
      return await new RegistryClient(reference, client, signal).config(platform);
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      this.log.warn({ image, detail: error.message }, 'image registry unreachable or refused');
      throw registryUnreachable();
    } finally {
      await client.close();
    }
  }

  private async allowlist(): Promise<HostAllowlist> {
    const { registryAllowlist } = await this.settings.get();
    const mirror = this.config.registryMirror ? [new URL(this.config.registryMirror).host] : [];
    return new HostAllowlist([...registryAllowlist, ...mirror]);
  }
}

export function describe(config: ImageConfig): ImageMetadata {
  const ports = Object.keys(config.ExposedPorts ?? {})
    .map((key) => {
      const [port, protocol] = key.split('/');
      return { port: Number(port), protocol: protocol === 'udp' ? ('udp' as const) : ('tcp' as const) };
    })
    .filter((entry) => Number.isInteger(entry.port) && entry.port > 0 && entry.port < 65536)
    .sort((a, b) => a.port - b.port || a.protocol.localeCompare(b.protocol));

  const http = new Map<string, { port?: number; hostnameSuffix?: string; requireAuth?: boolean }>();
  for (const [label, value] of Object.entries(config.Labels ?? {})) {
    const match = LABEL.exec(label);
    if (!match || typeof value !== 'string') continue;
    const name = match[1] ?? '';
    const entry = http.get(name) ?? {};
    if (match[2] === 'port') entry.port = Number(value);
    else if (match[2] === 'hostnameSuffix') entry.hostnameSuffix = value.trim();
    else entry.requireAuth = ['true', '1', 'yes'].includes(value.trim().toLowerCase());
    http.set(name, entry);
  }
  const httpServices = [...http.values()]
    .filter((entry) => Number.isInteger(entry.port) && entry.port! > 0 && entry.port! < 65536)
    .map((entry) => ({
      port: entry.port!,
      hostnameSuffix: entry.hostnameSuffix ?? '',
      requireAuth: entry.requireAuth ?? false,
    }));

  const command = [...strings(config.Entrypoint), ...strings(config.Cmd)];
  const env = strings(config.Env)
    .flatMap((line) => {
      const index = line.indexOf('=');
      const entry = { key: line.slice(0, index), value: line.slice(index + 1) };
      const fits = entry.key.length <= ENV_LIMITS.keyLength && entry.value.length <= ENV_LIMITS.valueLength;
      return index > 0 && fits ? [entry] : [];
    })
    .slice(0, ENV_LIMITS.count);
  return { ports, httpServices, entrypoint: command.length ? command.map(quote).join(' ') : null, env };
}
