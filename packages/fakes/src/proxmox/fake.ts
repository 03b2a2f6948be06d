import { X509Certificate } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { FakeServer } from '../shared/fake-server.ts';
import { testCertificate } from '../shared/tls.ts';
import type { FakeServerOptions } from '../shared/fake-server.ts';
import { Router } from '../shared/router.ts';
import { FakeHttpError } from '../shared/types.ts';
import type { FakeReply, FakeRequest } from '../shared/types.ts';
import { PveAuth } from './auth.ts';
import type { AuthIdentity } from './auth.ts';
import { API } from './context.ts';
import type { PveContext } from './context.ts';
import { renderPveError } from './errors.ts';
import type { OciTemplateConfig } from './lxc-create.ts';
import { normaliseNet } from './lxc-options.ts';
import { registerClusterRoutes } from './routes-cluster.ts';
import { registerConsoleRoutes } from './routes-console.ts';
import { registerLxcRoutes } from './routes-lxc.ts';
import { registerNodeRoutes } from './routes-node.ts';
import { SchemaCheck } from './schema-check.ts';
import type { SchemaViolation } from './schema/violations.ts';
import { PveState } from './state.ts';
import type { ConfigValue, NodeInit, PveContainer } from './state.ts';
import { TaskRunner } from './tasks.ts';
import type { TaskFailure } from './tasks.ts';
import { TermProxies } from './termproxy.ts';

/** pve-http-server's `$max_payload_size`: a larger WebSocket frame from the client ends the connection. */
const MAX_WEBSOCKET_PAYLOAD = 128 * 1024;

export interface ProxmoxFakeOptions extends FakeServerOptions {
  /** Node names (default `['pve']`). Each gets `local` (dir) and `local-lvm` (lvmthin) storages. */
  nodes?: (string | NodeInit)[];
  /** API tokens `{ 'root@pam!manager': '<uuid secret>' }`. */
  tokens?: Record<string, string>;
  /** Users for ticket login `{ 'root@pam': 'password' }`. */
  users?: Record<string, string>;
  /** Simulated duration of each worker task, in ms (default 100). */
  taskDurationMs?: number;
  /** Put `message` in error bodies (libpve-http-server-perl >= 5.2.0, default true). */
  errorMessageInBody?: boolean;
  /** pve-manager version (default `9.1.2`); below 9.1 there are no OCI templates, `env`, `entrypoint`. */
  version?: string;
  /** Templates on each node's `local` storage (default a Debian 12 template). */
  templates?: string[];
}

export interface AddContainerInit {
  vmid: number;
  node?: string;
  status?: 'running' | 'stopped';
  config?: Record<string, ConfigValue>;
}

export const DEFAULT_TEMPLATE = 'debian-12-standard_12.7-1_amd64.tar.zst';

/** A Proxmox VE `/api2/json` fake: LXC containers, worker tasks, storages, token and ticket auth. */
export class ProxmoxFake extends FakeServer {
  readonly state = new PveState();
  readonly tasks: TaskRunner;
  readonly auth = new PveAuth();
  /** The console proxies `termproxy` started (`count`: those open or waiting for their client). */
  readonly termproxies = new TermProxies(this.auth);
  private readonly websockets = new WebSocketServer({ noServer: true, maxPayload: MAX_WEBSOCKET_PAYLOAD });
  private readonly ociTemplates = new Map<string, OciTemplateConfig>();
  protected readonly router = new Router();
  private readonly identities = new WeakMap<FakeRequest, AuthIdentity>();
  private readonly withMessage: boolean;
  private readonly schema: SchemaCheck;
  /** SHA-256 fingerprint of the certificate served with `tls` (`AA:BB:…`, as `/nodes` shows it). */
  readonly fingerprint: string;

  constructor(options: ProxmoxFakeOptions = {}) {
    super(options);
    this.tasks = new TaskRunner(options.taskDurationMs ?? 100);
    this.withMessage = options.errorMessageInBody ?? true;
    this.schema = new SchemaCheck();
    const version = options.version ?? '9.1.2';
    for (const node of options.nodes ?? ['pve'])
      this.addNode(typeof node === 'string' ? { name: node } : node);
    for (const template of options.templates ?? [DEFAULT_TEMPLATE]) {
      for (const node of this.state.nodes.keys()) this.addTemplate(node, template);
    }
    for (const [id, secret] of Object.entries(options.tokens ?? {})) this.auth.addToken(id, secret);
    for (const [user, password] of Object.entries(options.users ?? {})) this.auth.addUser(user, password);
    this.fingerprint = new X509Certificate(
      options.tls && options.tls !== true ? options.tls.cert : testCertificate().cert,
    ).fingerprint256;
    const ctx: PveContext = {
      state: this.state,
      tasks: this.tasks,
      termproxies: this.termproxies,
      auth: this.auth,
      ociTemplates: this.ociTemplates,
      version: { version, release: version.split('.').slice(0, 2).join('.'), repoid: '2a5fa54a8503f96d' },
      oci: Number(version.split('.')[0]) * 100 + Number(version.split('.')[1]) >= 901,
      identities: this.identities,
      fingerprint: this.fingerprint,
      params: (req) => this.schema.params(req),
    };
    registerClusterRoutes(this.router, ctx);
    registerNodeRoutes(this.router, ctx);
    registerLxcRoutes(this.router, ctx);
    registerConsoleRoutes(this.router, ctx);
  }

  /** `https://127.0.0.1:<port>/api2/json` (or http without TLS). */
  get apiUrl(): string {
    return `${this.url}${API}`;
  }

  addNode(init: NodeInit): void {
    this.state.addNode(init);
  }

  /** Marks a cluster member offline: `/nodes` shows it offline, its calls answer 595. */
  setNodeOnline(name: string, online: boolean): void {
    this.state.node(name).online = online;
  }

  /** Adds `<storage>:vztmpl/<filename>`; with `oci`, an OCI archive (PVE 9.1+) with its image config. */
  addTemplate(
    node: string,
    filename: string,
    options: { storage?: string; oci?: OciTemplateConfig } = {},
  ): string {
    const storage = options.storage ?? 'local';
    const format = /\.tar\.zst$/.test(filename)
      ? 'tzst'
      : /\.tar\.gz$/.test(filename)
        ? 'tgz'
        : /\.tar\.xz$/.test(filename)
          ? 'txz'
          : 'tar';
    const volume = this.state.addVolume(this.state.node(node), storage, {
      name: filename,
      content: 'vztmpl',
      format,
      size: 125_829_120,
    });
    if (options.oci) this.ociTemplates.set(volume.volid, options.oci);
    return volume.volid;
  }

  /** Makes `oci-registry-pull` of `reference` succeed with this image config. */
  addOciImage(reference: string, config: OciTemplateConfig): void {
    this.ociTemplates.set(reference, config);
  }

  /** Puts a container in place without a task (status `stopped` unless given). */
  addContainer(init: AddContainerInit): PveContainer {
    const node = init.node ?? this.state.nodes.keys().next().value!;
    const config: Record<string, ConfigValue> = {
      arch: 'amd64',
      hostname: `CT${init.vmid}`,
      memory: 512,
      swap: 512,
      ostype: 'debian',
      rootfs: `local-lvm:vm-${init.vmid}-disk-0,size=8G`,
      net0: normaliseNet('net0', 'name=eth0,bridge=vmbr0,ip=dhcp'),
      unprivileged: 1,
      ...init.config,
    };
    const ct: PveContainer = { vmid: init.vmid, node, status: init.status ?? 'stopped', config, pending: {} };
    if (ct.status === 'running') ct.startedAt = Date.now();
    this.state.containers.set(ct.vmid, ct);
    return ct;
  }

  /** The next worker task (of `type`, if given) ends with `TASK ERROR: <message>`. */
  failNextTask(failure: TaskFailure): void {
    this.tasks.failNextTask(failure);
  }

  set taskDurationMs(ms: number) {
    this.tasks.durationMs = ms;
  }

  protected override commonHeaders(): Record<string, string> {
    return { server: 'pve-api-daemon/3.0', 'cache-control': 'max-age=0', pragma: 'no-cache' };
  }

  /** Requests the schema refused and answers outside its `returns`, since the last `takeViolations`. */
  get violations(): readonly SchemaViolation[] {
    return this.schema.violations;
  }

  /** Takes them (a test that sends a refused request on purpose; the test guard takes the rest). */
  takeViolations(): SchemaViolation[] {
    return this.schema.take();
  }

  protected override beforeRoute(req: FakeRequest): void {
    // pve-http-server looks the handler up before authenticating: unknown paths are 501 even without auth.
    const endpoint = this.schema.endpoint(req);
    if (!endpoint || !this.router.match(req.method, req.path)) throw this.notFound(req);
    const open = req.method === 'POST' && req.path === `${API}/access/ticket`;
    const hasToken = String(req.headers.authorization ?? '').startsWith('PVEAPIToken');
    if (!open || hasToken) this.identities.set(req, this.auth.authenticate(req));
    this.schema.enforce(req);
  }

  /** Every request is held to the schema, those an injected failure or reply answers too. */
  protected override observe(req: FakeRequest): void {
    this.schema.inspect(req);
  }

  protected override afterRoute(req: FakeRequest, reply: FakeReply): FakeReply {
    this.schema.checkAnswer(req, reply);
    return reply;
  }

  /**
   * pve-http-server upgrades a GET of a path ending in `websocket` whose handler answered 200, and
   * proxies the socket to `localhost:<port>` of that answer: here the termproxy listening there; with
   * none (already connected, timed out) the connection fails and the client's is dropped.
   */
  protected override upgrade(req: FakeRequest, reply: FakeReply, socket: Duplex, head: Buffer): void {
    if (reply.status !== 200 || req.method !== 'GET' || !req.path.endsWith('websocket')) {
      return super.upgrade(req, reply, socket, head);
    }
    const port = Number((JSON.parse(String(reply.body)) as { data: { port: string } }).data.port);
    const proxy = this.termproxies.accept(port);
    if (!proxy) return void socket.destroy();
    this.websockets.handleUpgrade(req.raw, socket, head, (ws) => this.termproxies.serve(proxy, ws, socket));
  }

  protected override notFound(req: FakeRequest): FakeHttpError {
    const path = req.path.startsWith(API) ? req.path.slice(API.length) : req.path;
    return new FakeHttpError(501, `Method '${req.method} ${path}' not implemented`);
  }

  protected renderError(err: FakeHttpError): FakeReply {
    return renderPveError(err, this.withMessage);
  }
}
