import { AppError, notFound } from '@app/server-kit';
import type { ImageReference } from './image-reference.ts';
import { chooseManifest, formatPlatform, type Platform } from './platform.ts';

const MANIFEST_TYPES = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
];

export interface ImageConfig {
  ExposedPorts?: Record<string, unknown>;
  Env?: string[] | null;
  Entrypoint?: string[] | null;
  Cmd?: string[] | null;
  Labels?: Record<string, string> | null;
  Volumes?: Record<string, unknown> | null;
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

export const imageNotFound = (message: string) => notFound(message, 'image_not_found');
export const registryError = (message: string) => new AppError(502, 'registry_error', message);

/** Reads an image's config through the OCI Distribution API (anonymous Bearer-token challenge). */
export class RegistryClient {
  private token: string | undefined;

  constructor(
    private readonly image: ImageReference,
    private readonly signal: AbortSignal,
  ) {}

  async config(platform: Platform): Promise<ImageConfig> {
    let manifest = await this.json<Manifest>(`manifests/${this.image.reference}`, MANIFEST_TYPES);
    if (manifest.manifests) {
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
    if (!manifest.config?.digest) throw registryError('The registry answered a manifest without a config.');
    const blob = await this.json<{ config?: ImageConfig; architecture?: string }>(
      `blobs/${manifest.config.digest}`,
      ['application/json', '*/*'],
    );
    return blob.config ?? {};
  }

  private async json<T>(path: string, accept: string[]): Promise<T> {
    const url = `${this.image.baseUrl}/v2/${this.image.repository}/${path}`;
    let response = await this.fetch(url, accept);
    if (response.status === 401 && !this.token) {
      const challenge = response.headers.get('www-authenticate');
      await response.body?.cancel();
      if (!challenge?.toLowerCase().startsWith('bearer ')) {
        throw registryError('The registry asks for credentials the manager does not have.');
      }
      this.token = await this.fetchToken(challenge);
      response = await this.fetch(url, accept);
    }
    if (response.status === 401 || response.status === 403 || response.status === 404) {
      await response.body?.cancel();
      throw imageNotFound(
        `Image ${this.image.repository}:${this.image.reference} was not found (or is private) at ${this.image.baseUrl}.`,
      );
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw registryError(`The registry answered ${response.status} for ${path}.`);
    }
    try {
      return (await response.json()) as T;
    } catch {
      throw registryError(`The registry answered ${path} with something that is not JSON.`);
    }
  }

  private async fetch(url: string, accept: string[]): Promise<Response> {
    try {
      return await fetch(url, {
        headers: {
          accept: accept.join(', '),
          ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        },
        signal: this.signal,
      });
    } catch (error) {
      throw registryError(
        `The registry at ${this.image.baseUrl} cannot be reached: ${error instanceof Error ? error.message : String(error)}.`,
      );
    }
  }

  /** `Bearer realm="…",service="…",scope="…"` → an anonymous pull token. */
  private async fetchToken(challenge: string): Promise<string> {
    const params = new Map<string, string>();
    for (const match of challenge.slice(7).matchAll(/(\w+)="([^"]*)"/g)) params.set(match[1]!, match[2]!);
    const realm = params.get('realm');
    if (!realm) throw registryError('The registry challenge names no token realm.');
    const url = new URL(realm);
    if (params.get('service')) url.searchParams.set('service', params.get('service')!);
    url.searchParams.set('scope', params.get('scope') ?? `repository:${this.image.repository}:pull`);
    let response: Response;
    try {
      response = await fetch(url, { signal: this.signal });
    } catch (error) {
      throw registryError(`The registry token service cannot be reached: ${String(error)}.`);
    }
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      throw imageNotFound(`Image ${this.image.repository} was not found (or is private).`);
    }
    const body = (await response.json().catch(() => undefined)) as
      { token?: string; access_token?: string } | undefined;
    const token = body?.token ?? body?.access_token;
    if (!response.ok || !token)
      throw registryError(`The registry token service answered ${response.status}.`);
    return token;
  }
}
