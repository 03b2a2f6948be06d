import { FakeServer } from '../shared/fake-server.ts';
import type { FakeServerOptions } from '../shared/fake-server.ts';
import { Router } from '../shared/router.ts';
import { FakeHttpError, jsonReply } from '../shared/types.ts';
import type { FakeReply, FakeRequest } from '../shared/types.ts';
import { ContainerStore } from './containers.ts';
import type { DockerContainer, Ulimit } from './containers.ts';
import { compareVersions, goArch } from './format.ts';
import { ImageStore } from './images.ts';
import type { DockerImage, ImageSpec } from './images.ts';
import { registerContainerRoutes, registerImageRoutes, registerSystemRoutes } from './routes.ts';
import { registerNetworkRoutes } from './network-routes.ts';
import { registerExecRoutes } from './exec-routes.ts';
import { registerStatsRoutes } from './stats-routes.ts';

export interface DockerFakeOptions extends FakeServerOptions {
  /** Also listen on this unix socket path (like `/var/run/docker.sock`). */
  socketPath?: string;
  /** `docker` (default, Engine 27.5.1, API 1.47) or `podman` (Podman 5.4.0 compat API 1.41). */
  flavor?: 'docker' | 'podman';
  /** Maximum API version answered in `Api-Version` (default 1.47 docker / 1.41 podman). */
  apiVersion?: string;
  /** Minimum accepted `/v1.xx` prefix (default 1.24). */
  minApiVersion?: string;
  /** The host has the NVIDIA runtime (GPU `DeviceRequests` start). Default false. */
  gpu?: boolean;
  /** Delay between pull progress lines, ms (default 5). */
  pullLineDelayMs?: number;
  /**
   * The host's CPU as `uname -m` names it (default `x86_64`): Docker's `/info` `Architecture` reports it
   * as it is (`aarch64`, `armv7l`), Podman's in Go's words (`arm64`, `arm`), like `/version` `Arch`.
   * Pulled images are of the host's architecture.
   */
  architecture?: string;
  /** The host's CPUs (`/info` `NCPU`, default 8): Docker refuses a container `NanoCpus` above them. */
  cpus?: number;
  /** The daemon's default ulimits (`default-ulimits`, `default_ulimits`), shown in every container's inspect. */
  ulimits?: Ulimit[];
}

/** A Docker Engine API fake (also Podman's Docker-compatible API), over TCP and a unix socket. */
export class DockerFake extends FakeServer {
  readonly images: ImageStore;
  readonly store: ContainerStore;
  protected readonly router = new Router();
  private readonly podman: boolean;
  private readonly apiVersion: string;
  private readonly minApiVersion: string;
  private readonly engineVersion: string;
  private readonly requestVersions = new WeakMap<FakeRequest, string>();

  constructor(options: DockerFakeOptions = {}) {
    super(options);
    this.podman = options.flavor === 'podman';
    this.apiVersion = options.apiVersion ?? (this.podman ? '1.41' : '1.47');
    this.minApiVersion = options.minApiVersion ?? '1.24';
    this.engineVersion = this.podman ? '5.4.0' : '27.5.1';
    const machine = options.architecture ?? 'x86_64';
    this.images = new ImageStore(options.pullLineDelayMs ?? 5, goArch(machine));
    this.store = new ContainerStore(this.images, {
      gpu: options.gpu ?? false,
      defaultNetwork: this.podman ? 'podman' : 'bridge',
      podman: this.podman,
      cpus: options.cpus ?? 8,
      ulimits: options.ulimits ?? [],
    });
    const ctx = {
      images: this.images,
      containers: this.store,
      engineVersion: this.engineVersion,
      apiVersion: this.apiVersion,
      minApiVersion: this.minApiVersion,
      podman: this.podman,
      machine,
      versionOf: (req: FakeRequest) => this.requestVersions.get(req) ?? this.apiVersion,
    };
    registerSystemRoutes(this.router, ctx);
    registerImageRoutes(this.router, ctx);
    registerContainerRoutes(this.router, ctx);
    registerNetworkRoutes(this.router, ctx);
    registerExecRoutes(this.router, ctx);
    registerStatsRoutes(this.router, ctx);
  }

  /** `unix://<socketPath>` when listening on a socket, else `tcp://127.0.0.1:<port>`. */
  get dockerHost(): string {
    return this.socketPath ? `unix://${this.socketPath}` : `tcp://127.0.0.1:${this.port}`;
  }

  /** An image a pull can fetch (the registry side). */
  addRemoteImage(reference: string, spec: ImageSpec = {}): string {
    return this.images.addRemote(reference, spec);
  }

  /** An image already present locally. */
  addImage(reference: string, spec: ImageSpec = {}): DockerImage {
    return this.images.addLocal(reference, spec);
  }

  /** The next pull fails mid-stream with this `errorDetail` message. */
  failNextPull(message: string): void {
    this.images.failNextPull(message);
  }

  /** A user-defined network (static IPs allowed), e.g. `addNetwork('lan', '10.1.2.0/24')`. */
  addNetwork(name: string, subnet: string): void {
    this.store.addNetwork(name, subnet);
  }

  container(ref: string): DockerContainer {
    return this.store.find(ref);
  }

  /** Appends a line to a container's log (`stream` 1 = stdout, 2 = stderr). */
  appendLog(ref: string, text: string, stream: 1 | 2 = 1): void {
    this.store
      .find(ref)
      .logs.push({ stream, text: text.endsWith('\n') ? text : `${text}\n`, time: new Date().toISOString() });
  }

  /** Simulates the process exiting by itself. */
  exitContainer(ref: string, exitCode: number): void {
    this.store.stop(this.store.find(ref), exitCode);
  }

  protected override commonHeaders(): Record<string, string> {
    const headers: Record<string, string> = {
      'api-version': this.apiVersion,
      'docker-experimental': this.podman ? 'true' : 'false',
      ostype: 'linux',
      server: this.podman ? `Libpod/${this.engineVersion} (linux)` : `Docker/${this.engineVersion} (linux)`,
    };
    if (this.podman) headers['libpod-api-version'] = this.engineVersion;
    return headers;
  }

  protected override beforeRoute(req: FakeRequest): void {
    const match = /^\/v([0-9.]+)(\/.*)$/.exec(req.path);
    if (!match) return;
    const version = match[1]!;
    req.path = match[2]!;
    if (this.podman && req.path.startsWith('/libpod/')) return;
    if (compareVersions(version, this.minApiVersion) < 0) {
      throw new FakeHttpError(
        400,
        `client version ${version} is too old. Minimum supported API version is ${this.minApiVersion}, please upgrade your client to a newer version`,
      );
    }
    if (!this.podman && compareVersions(version, this.apiVersion) > 0) {
      throw new FakeHttpError(
        400,
        `client version ${version} is too new. Maximum supported API version is ${this.apiVersion}`,
      );
    }
    this.requestVersions.set(req, version);
  }

  protected override notFound(): FakeHttpError {
    return new FakeHttpError(404, 'page not found');
  }

  protected renderError(err: FakeHttpError): FakeReply {
    if (err.status === 304) return { status: 304, body: '' };
    if (this.podman) {
      const cause = err.message.split(': ').pop() ?? err.message;
      return jsonReply(err.status, { cause, message: err.message, response: err.status });
    }
    return jsonReply(err.status, { message: err.message });
  }
}
