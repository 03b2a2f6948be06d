import { setTimeout as sleep } from 'node:timers/promises';
import { randomHex, sha256Hex } from '../shared/ids.ts';
import { FakeHttpError } from '../shared/types.ts';
import { familiarName, familiarString, parseReference } from './reference.ts';

/** The image config part (`Config` in inspect) an image author sets. */
export interface ImageConfig {
  Env?: string[];
  Cmd?: string[] | null;
  Entrypoint?: string[] | null;
  ExposedPorts?: Record<string, object>;
  Labels?: Record<string, string>;
  WorkingDir?: string;
  User?: string;
  StopSignal?: string;
  Volumes?: Record<string, object> | null;
}

export interface ImageSpec {
  config?: ImageConfig;
  architecture?: string;
  os?: string;
  /** Number of layers (default 3). */
  layers?: number;
  /** Bytes (default 50 MB). */
  size?: number;
}

export interface DockerImage {
  id: string;
  repoTags: string[];
  repoDigests: string[];
  created: string;
  config: ImageConfig;
  architecture: string;
  os: string;
  size: number;
  layers: string[];
}

/** Local images, plus the "remote" images a pull can fetch. */
export class ImageStore {
  readonly local = new Map<string, DockerImage>();
  private readonly remote = new Map<string, DockerImage>();
  private readonly pullFailures: string[] = [];

  constructor(
    public pullLineDelayMs: number,
    /** The host's architecture (Go's name): what an image is of unless its spec says otherwise. */
    private readonly architecture = 'amd64',
  ) {}

  /** Registers an image the pull endpoint can fetch. Returns its familiar `name:tag`. */
  addRemote(reference: string, spec: ImageSpec = {}): string {
    const key = familiarString(parseReference(reference));
    this.remote.set(key, buildImage(key, { architecture: this.architecture, ...spec }));
    return key;
  }

  /** Puts an image in the local store, as if pulled. */
  addLocal(reference: string, spec: ImageSpec = {}): DockerImage {
    const key = familiarString(parseReference(reference));
    const image = this.remote.get(key) ?? buildImage(key, { architecture: this.architecture, ...spec });
    this.local.set(key, image);
    return image;
  }

  /** The next pull fails after streaming some progress, with an in-stream `errorDetail` line. */
  failNextPull(message: string): void {
    this.pullFailures.push(message);
  }

  /** Finds a local image by reference, full id, or id prefix. */
  find(name: string): DockerImage | undefined {
    const id = name.replace(/^sha256:/, '');
    if (/^[a-f0-9]{12,64}$/.test(id)) {
      for (const image of this.local.values()) if (image.id.slice(7).startsWith(id)) return image;
    }
    try {
      return this.local.get(familiarString(parseReference(name)));
    } catch {
      return undefined;
    }
  }

  get(name: string): DockerImage {
    const image = this.find(name);
    if (!image) throw new FakeHttpError(404, `No such image: ${safeFamiliar(name)}`);
    return image;
  }

  /**
   * `POST /images/create`: checks run before the first line (404/400 as a status), then JSON
   * progress objects each followed by CRLF.
   */
  pull(fromImage: string, tag: string | undefined): AsyncIterable<string> {
    const ref = parseReference(
      tag && !fromImage.includes('@') ? `${fromImage.replace(/:[^/:]*$/, '')}:${tag}` : fromImage,
    );
    const key = familiarString(ref);
    const repoKnown = [...this.remote.keys()].some((k) => k.startsWith(`${familiarName(ref)}:`));
    if (!repoKnown) {
      throw new FakeHttpError(
        404,
        `pull access denied for ${familiarName(ref)}, repository does not exist or may require 'docker login': denied: requested access to the resource is denied`,
      );
    }
    const image = this.remote.get(key);
    if (!image) {
      throw new FakeHttpError(404, `manifest for ${key} not found: manifest unknown: manifest unknown`);
    }
    const failure = this.pullFailures.shift();
    return this.stream(ref.tag ?? 'latest', ref.path, key, image, failure);
  }

  private async *stream(tag: string, path: string, key: string, image: DockerImage, failure?: string) {
    const line = async (value: object) => {
      if (this.pullLineDelayMs > 0) await sleep(this.pullLineDelayMs);
      return `${JSON.stringify(value)}\r\n`;
    };
    yield await line({ status: `Pulling from ${path}`, id: tag });
    const digest = image.repoDigests[0]!.split('@')[1];
    if (this.local.get(key) === image) {
      yield await line({ status: `Digest: ${digest}` });
      yield await line({ status: `Status: Image is up to date for ${key}` });
      return;
    }
    const layerSize = Math.floor(image.size / image.layers.length);
    for (const layer of image.layers)
      yield await line({ status: 'Pulling fs layer', progressDetail: {}, id: layer.slice(7, 19) });
    for (const layer of image.layers) {
      const id = layer.slice(7, 19);
      const half = Math.floor(layerSize / 2);
      yield await line({
        status: 'Downloading',
        progressDetail: { current: half, total: layerSize },
        progress: bar(half, layerSize),
        id,
      });
      if (failure) {
        const message = failure;
        yield await line({ errorDetail: { message }, error: message });
        return;
      }
      yield await line({ status: 'Verifying Checksum', progressDetail: {}, id });
      yield await line({ status: 'Download complete', progressDetail: {}, id });
    }
    for (const layer of image.layers) {
      const id = layer.slice(7, 19);
      yield await line({
        status: 'Extracting',
        progressDetail: { current: layerSize, total: layerSize },
        progress: bar(layerSize, layerSize),
        id,
      });
      yield await line({ status: 'Pull complete', progressDetail: {}, id });
    }
    yield await line({ status: `Digest: ${digest}` });
    yield await line({ status: `Status: Downloaded newer image for ${key}` });
    this.local.set(key, image);
  }
}

function safeFamiliar(name: string): string {
  try {
    return familiarString(parseReference(name));
  } catch {
    return name;
  }
}

function buildImage(key: string, spec: ImageSpec): DockerImage {
  const seed = randomHex(16);
  const name = key.replace(/:[^:]+$/, '');
  const layers = Array.from(
    { length: spec.layers ?? 3 },
    (_, i) => `sha256:${sha256Hex(`${seed}-layer-${i}`)}`,
  );
  return {
    id: `sha256:${sha256Hex(`${seed}-config`)}`,
    repoTags: [key],
    repoDigests: [`${name}@sha256:${sha256Hex(`${seed}-manifest`)}`],
    created: new Date(Date.now() - 7 * 86_400_000).toISOString(),
    config: {
      Env: ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
      Cmd: ['/bin/sh'],
      Entrypoint: null,
      WorkingDir: '',
      User: '',
      Labels: {},
      ...spec.config,
    },
    architecture: spec.architecture ?? 'amd64',
    os: spec.os ?? 'linux',
    size: spec.size ?? 50_000_000,
    layers,
  };
}

function bar(current: number, total: number): string {
  const width = 50;
  const filled = Math.floor((current / total) * width);
  const mb = (n: number) => `${(n / 1e6).toFixed(1)}MB`;
  return `[${'='.repeat(Math.max(filled - 1, 0))}>${' '.repeat(width - filled)}] ${mb(current)}/${mb(total)}`;
}

/** `GET /images/{name}/json` for API 1.44+ (no VirtualSize, Container, ContainerConfig). */
export function inspectImage(image: DockerImage): Record<string, unknown> {
  return {
    Id: image.id,
    RepoTags: image.repoTags,
    RepoDigests: image.repoDigests,
    Parent: '',
    Comment: 'buildkit.dockerfile.v0',
    Created: image.created,
    DockerVersion: '',
    Author: '',
    Config: {
      Hostname: '',
      Domainname: '',
      User: '',
      AttachStdin: false,
      AttachStdout: false,
      AttachStderr: false,
      Tty: false,
      OpenStdin: false,
      StdinOnce: false,
      Image: '',
      Volumes: null,
      OnBuild: null,
      ...image.config,
    },
    Architecture: image.architecture,
    Os: image.os,
    Size: image.size,
    GraphDriver: { Name: 'overlay2', Data: { MergedDir: '', UpperDir: '', WorkDir: '' } },
    RootFS: { Type: 'layers', Layers: image.layers },
    Metadata: { LastTagTime: '0001-01-01T00:00:00Z' },
  };
}
