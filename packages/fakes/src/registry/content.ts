import { createHash, randomBytes } from 'node:crypto';

export const MEDIA = {
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  dockerConfig: 'application/vnd.docker.container.image.v1+json',
  dockerLayer: 'application/vnd.docker.image.rootfs.diff.tar.gzip',
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  ociConfig: 'application/vnd.oci.image.config.v1+json',
  ociLayer: 'application/vnd.oci.image.layer.v1.tar+gzip',
} as const;

/** The image config an author sets (the `config` member of the config blob). */
export interface OciImageConfig {
  ExposedPorts?: Record<string, object>;
  Env?: string[];
  Entrypoint?: string[] | null;
  Cmd?: string[] | null;
  Labels?: Record<string, string>;
  /** `VOLUME` paths, as keys of empty objects. */
  Volumes?: Record<string, object>;
  WorkingDir?: string;
  User?: string;
  StopSignal?: string;
}

export interface Platform {
  architecture: string;
  os: string;
  variant?: string;
}

/** One image of an index: its platform (the descriptor's `platform`) and what its config sets apart. */
export interface PlatformImage extends Platform {
  /** Set over the spec's `config` for this platform only (the images of an index may differ). */
  config?: OciImageConfig;
}

export interface RegistryImageSpec {
  config?: OciImageConfig;
  /** One platform → a plain manifest; several → a manifest list / OCI index. Default linux/amd64. */
  platforms?: PlatformImage[];
  /** `docker` (schema2 + manifest list, default) or `oci` (OCI manifest + index). */
  format?: 'docker' | 'oci';
  /** Force an index even for one platform. */
  index?: boolean;
  /** Layers per platform (default 2). */
  layers?: number;
}

export interface Blob {
  mediaType: string;
  bytes: Buffer;
}

export function digestOf(bytes: Buffer): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** What `addImage` produced: the blobs to store and the manifest the tag points at. */
export interface BuiltImage {
  /** Every blob and manifest by digest (manifests are stored as blobs of their media type). */
  blobs: Map<string, Blob>;
  /** Digest of the tagged manifest (or index). */
  top: string;
  /** For a Docker manifest list: the linux/amd64 manifest served to clients that refuse lists. */
  fallback?: string;
}

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value, null, 3));
}

/** Builds config blobs, layers, manifests and (for several platforms) the index, with real digests. */
export function buildImage(spec: RegistryImageSpec): BuiltImage {
  const oci = spec.format === 'oci';
  const platforms: PlatformImage[] = spec.platforms?.length
    ? spec.platforms
    : [{ architecture: 'amd64', os: 'linux' }];
  const blobs = new Map<string, Blob>();
  const put = (mediaType: string, bytes: Buffer) => {
    const digest = digestOf(bytes);
    blobs.set(digest, { mediaType, bytes });
    return { mediaType, size: bytes.length, digest };
  };
  const manifests = platforms.map(({ config: own, ...platform }) => {
    const layers = Array.from({ length: spec.layers ?? 2 }, () =>
      put(oci ? MEDIA.ociLayer : MEDIA.dockerLayer, randomBytes(64)),
    );
    const config = put(
      oci ? MEDIA.ociConfig : MEDIA.dockerConfig,
      json({
        architecture: platform.architecture,
        os: platform.os,
        ...(platform.variant ? { variant: platform.variant } : {}),
        created: '2025-01-15T10:00:00Z',
        config: {
          Env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
          ...spec.config,
          ...own,
        },
        rootfs: { type: 'layers', diff_ids: layers.map(() => digestOf(randomBytes(32))) },
        history: layers.map(() => ({
          created: '2025-01-15T10:00:00Z',
          created_by: 'ADD rootfs.tar.gz / # buildkit',
        })),
      }),
    );
    const manifestType = oci ? MEDIA.ociManifest : MEDIA.dockerManifest;
    return {
      platform,
      ...put(manifestType, json({ schemaVersion: 2, mediaType: manifestType, config, layers })),
    };
  });
  if (manifests.length === 1 && !spec.index) return { blobs, top: manifests[0]!.digest };
  const indexType = oci ? MEDIA.ociIndex : MEDIA.dockerList;
  const index = put(
    indexType,
    json({
      schemaVersion: 2,
      mediaType: indexType,
      manifests: manifests.map(({ platform, mediaType, size, digest }) => ({
        mediaType,
        size,
        digest,
        platform,
      })),
    }),
  );
  const amd64 = manifests.find((m) => m.platform.architecture === 'amd64' && m.platform.os === 'linux');
  return { blobs, top: index.digest, fallback: oci ? undefined : amd64?.digest };
}
