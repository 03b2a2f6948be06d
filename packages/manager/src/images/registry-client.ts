import { OutboundError, type GuardedClient, type OutboundResponse } from '@app/server-kit';
import type { ImageReference } from './image-reference.ts';
import { chooseManifest, formatPlatform, type Platform } from './platform.ts';
import { imageNotFound, readRegistryBody, registryError } from './registry-errors.ts';
import { requestToken } from './registry-token.ts';

const MANIFEST_TYPES = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
];

/** Manifests and image configs are a few KiB; a registry's answer is never read past this. */
export const MAX_REGISTRY_BODY_BYTES = 4 * 1024 * 1024;

export interface ImageConfig {
  ExposedPorts?: Record<string, unknown>;
  Env?: string[] | null;
  Entrypoint?: string[] | null;
  Cmd?: string[] | null;
  Labels?: Record<string, string> | null;
  Volumes?: Record<string, unknown> | null;
  User?: string | null;
}

interface Descriptor {
  mediaType?: string;
  digest: string;
  platform?: { architecture?: string; os?: string; variant?: string };
}

interface Manifest {
  mediaType?: string;
  manifests?: Descriptor[];
  config?: Descriptor;
}

/**
 * Reads an image's config through the OCI Distribution API (anonymous Bearer-token challenge), every
 * call through the guarded client. An allowlisted registry that does not speak HTTPS is asked again
 * over plain HTTP, as Docker does for its insecure registries.
 */
export class RegistryClient {
  private token: string | undefined;
  private baseUrl: string;
  private answered = false;

  constructor(
    private readonly image: ImageReference,
    private readonly client: GuardedClient,
    private readonly signal: AbortSignal,
  ) {
    this.baseUrl = image.baseUrl;
  }

  async config(platform: Platform): Promise<ImageConfig> {
    let manifest = await this.json<Manifest>(`manifests/${this.image.reference}`, MANIFEST_TYPES);
    if (Array.isArray(manifest.manifests)) {
      const chosen = chooseManifest(manifest.manifests, platform);
      if (!chosen) {
        const offered =
          manifest.manifests
            .filter((entry) => (entry.platform?.os ?? 'linux') === 'linux' && entry.platform?.architecture)
            .map((entry) => `linux/${formatPlatform(entry.platform as Platform)}`)
            .join(', ') || 'none';
        throw imageNotFound(
          `The image has no linux/${formatPlatform(platform)} variant (it has: ${offered}).`,
        );
      }
      manifest = await this.json<Manifest>(`manifests/${chosen.digest}`, MANIFEST_TYPES);
    }
    if (typeof manifest.config?.digest !== 'string')
      throw registryError('The registry answered a manifest without a config.');
    const blob = await this.json<{ config?: ImageConfig }>(`blobs/${manifest.config.digest}`, [
      'application/json',
      '*/*',
    ]);
    return blob.config ?? {};
  }

  private async json<T>(path: string, accept: string[]): Promise<T> {
    let response = await this.fetch(path, accept);
    if (response.status === 401 && !this.token) {
      const challenge = response.headers.get('www-authenticate');
      await response.body?.cancel();
      if (!challenge?.toLowerCase().startsWith('bearer ')) {
        throw registryError('The registry asks for credentials the manager does not have.');
      }
      this.token = await requestToken({
        challenge,
        registry: new URL(this.baseUrl),
        repository: this.image.repository,
        client: this.client,
        signal: this.signal,
      });
      response = await this.fetch(path, accept);
    }
    if (response.status === 401 || response.status === 403 || response.status === 404) {
      await response.body?.cancel();
      throw imageNotFound(
        `Image ${this.image.repository}:${this.image.reference} was not found (or is private) at ${this.baseUrl}.`,
      );
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw registryError(`The registry answered ${response.status} for ${path}.`);
    }
    const text = await readRegistryBody(response, MAX_REGISTRY_BODY_BYTES, path);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!parsed || typeof parsed !== 'object')
      throw registryError(`The registry answered ${path} with something that is not a JSON object.`);
    return parsed as T;
  }

  private async fetch(path: string, accept: string[]): Promise<OutboundResponse> {
    const get = () =>
      this.client.get(`${this.baseUrl}/v2/${this.image.repository}/${path}`, {
        headers: {
          accept: accept.join(', '),
          ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        },
        signal: this.signal,
      });
    try {
      const response = await get();
      this.answered = true;
      return response;
    } catch (error) {
      const base = new URL(this.baseUrl);
      const fallBack =
        error instanceof OutboundError &&
        !this.answered &&
        !this.signal.aborted &&
        base.protocol === 'https:' &&
        this.client.allowlisted(base);
      if (!fallBack) throw error;
      this.baseUrl = this.baseUrl.replace(/^https:/, 'http:');
      const response = await get();
      this.answered = true;
      return response;
    }
  }
}
