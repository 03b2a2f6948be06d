import type { NodeType } from '../nodes/node-rules.ts';
import type { Platform } from '../images/platform.ts';
import type { TerminalSession, TerminalSize } from './terminal.ts';

/** A node as a provider needs it: its address and opened credentials. Never leaves the server. */
export interface NodeConnection {
  id: number;
  name: string;
  nodeType: NodeType;
  siteId: number;
  ipv4Address: string | null;
  apiUrl: string | null;
  tokenId: string | null;
  secret: string | null;
  /** Check the certificate against the system's CAs; null (unset) means yes. */
  tlsVerify: boolean | null;
  /** SHA-256 fingerprint (`AA:BB:…`) the certificate must have, whatever its CA; overrides tlsVerify. */
  tlsFingerprint: string | null;
  imageStorage: string;
  volumeStorage: string;
  networkBridge: string;
  nvidiaAvailable: boolean;
  /** Added to a container's uid/gid for the host's (volume folder owners); null: the node type's default. */
  volumeIdShift: number | null;
}

/** What a long operation gets from the job running it. */
export interface OperationContext {
  signal: AbortSignal;
  /** Appends one line to the job output (streamed to SSE clients as it is written). */
  log(line: string): Promise<void>;
  /**
   * Create only: names what the create is about to make on the node (a vmid, a container name), before
   * making it, so that if this worker dies a take-over can remove it (see Provider.discard).
   */
  made?(instance: string): Promise<void>;
}

export interface Resources {
  cores: number;
  memoryMb: number;
  swapMb: number;
  rootfsGb: number;
}

/** A host folder bind-mounted into the container. */
export interface BindMount {
  hostPath: string;
  mountPath: string;
  readOnly: boolean;
}

export interface CreateSpec {
  hostname: string;
  /** Image reference (`nginx:1.27`, `ghcr.io/o/r:tag`) or, on a hypervisor, a template volume id. */
  image: string;
  /** MAC address allocated by the manager (dnsmasq reserves the IPv4 for it). */
  macAddress: string | null;
  entrypoint: string | null;
  environment: Record<string, string>;
  nvidia: boolean;
  resources: Resources;
  /** DNS settings handed to the container where the provider supports it. */
  nameserver?: string | undefined;
  searchDomain?: string | undefined;
  /** Host folders to bind-mount (the container's volumes, prepared by the site agent). */
  mounts?: BindMount[] | undefined;
  /** The IPv4 the manager allocated, in the site's network; engines give it to the container. */
  address?: SiteAddress | undefined;
}

/** An address in a site's network: `subnet` is the site's (`10.0.0.0/24`), its gateway the site's. */
export interface SiteAddress {
  ipv4Address: string;
  subnet: string;
  gateway: string;
}

export interface ReconfigureSpec {
  /** The container's name on the node (an engine finds an interrupted recreate's replacement by it). */
  hostname?: string;
  /** What the container was made from: an image reference, or on a hypervisor a template volume id. */
  image?: string;
  /** The user's variables: the whole set (a variable left out is removed). */
  environment?: Record<string, string>;
  /**
   * The image's own environment, recorded at create, which `environment` goes over. Used where the
   * node keeps it only inside the container's environment (Proxmox VE); the engine merges the image's
   * itself whenever it creates a container.
   */
  imageEnvironment?: Record<string, string>;
  entrypoint?: string | null;
  resources?: Partial<Resources>;
}

export type InstanceState = 'running' | 'stopped';

export interface InstanceInfo {
  containerId: string;
  hostname: string;
  state: InstanceState;
}

/** Batch status of one node: every instance by provider id, or why the node could not be asked. */
export type NodeInstances =
  { reachable: true; instances: Map<string, InstanceInfo> } | { reachable: false; reason: string };

export interface StorageInfo {
  name: string;
  total: number;
  available: number;
}

export interface Usage {
  total: number;
  /** Absent where the node does not report it (a container engine reports totals only). */
  used?: number;
}

export interface NodeStats {
  available: boolean;
  reason?: string;
  /** CPU utilisation as a fraction (0–1) and the number of CPUs. */
  cpu?: { usage?: number; cores: number };
  memory?: Usage;
  swap?: Usage;
  rootfs?: Usage;
  uptime?: number;
  loadavg?: number[];
  containers?: { total: number; running: number };
  datastores?: Array<{ name: string; total: number; used: number; available: number }>;
}

/**
 * One subject's figures at one moment, as the node reports them; a figure the node does not report is
 * absent. `cpuCores` is how many CPUs it keeps busy; `*Limit` is what it was allocated (a node: what
 * it has). Network counters are bytes since the instance (or node) started: the sampler turns them
 * into rates.
 */
export interface UsageSample {
  cpuCores?: number;
  cpuLimit?: number;
  memoryBytes?: number;
  memoryLimit?: number;
  diskBytes?: number;
  diskLimit?: number;
  netInTotal?: number;
  netOutTotal?: number;
}

/** One point of an instance's recorded past: averages over a minute, traffic as bytes per second. */
export interface UsagePoint extends Omit<UsageSample, 'netInTotal' | 'netOutTotal'> {
  /** Epoch ms of the minute's start. */
  at: number;
  netInRate?: number;
  netOutRate?: number;
}

/** A node's usage and that of each of its running instances (by provider id), from one sampling call. */
export interface NodeUsage {
  node: UsageSample;
  instances: Map<string, UsageSample>;
  /**
   * The node reports no traffic of its own (an engine, the dummy): its traffic is its instances'
   * together, summed as rates, since a summed counter jumps when an instance starts or stops.
   */
  trafficOfInstances?: true;
}

/** A node's CPU platform, or the default with why the node's own answer is missing. */
export interface NodePlatform extends Platform {
  /** Set when the node could not be asked and amd64 was assumed: the reason. */
  assumed?: string;
}

export interface ImportableInstance extends InstanceInfo {
  macAddress: string | null;
  ipv4Address: string | null;
  template: string;
}

export interface Created {
  containerId: string;
  /** The environment the image gave the instance, before ours; for providers that need it back on reconfigure. */
  imageEnvironment?: Record<string, string>;
}

/** A command run in a container, without a terminal or input. */
export interface ExecSpec {
  /** The program and its arguments, as they are: no shell unless the command names one. */
  command: string[];
  /** How long it may run; the caller's signal ends it then. */
  timeoutMs: number;
}

export type LogStream = 'stdout' | 'stderr';

/** One line of a container's output: when it was written (ISO 8601), on which stream, its text. */
export interface LogLine {
  time: string;
  stream: LogStream;
  text: string;
}

export interface LogOptions {
  /** Lines written at or after / before this moment. */
  since?: Date | undefined;
  until?: Date | undefined;
  /** The streams wanted (at least one). */
  streams: ReadonlySet<LogStream>;
  /** Only the last `tail` lines of the window, of both streams (as engines count), before `streams` keeps its own. */
  tail?: number | undefined;
  /** Keep yielding new lines as they are written, until `signal` aborts (or the node ends the stream). */
  follow: boolean;
}

/** One interface, one adapter per node type (dummy, hypervisor, engine). */
export interface Provider {
  create(node: NodeConnection, spec: CreateSpec, ctx: OperationContext): Promise<Created>;
  start(node: NodeConnection, containerId: string, ctx: OperationContext): Promise<void>;
  stop(node: NodeConnection, containerId: string, ctx: OperationContext): Promise<void>;
  restart(node: NodeConnection, containerId: string, ctx: OperationContext): Promise<void>;
  /** Applies new settings; the id changes when the provider must recreate the instance (engine). */
  reconfigure(
    node: NodeConnection,
    containerId: string,
    spec: ReconfigureSpec,
    ctx: OperationContext,
  ): Promise<{ containerId: string }>;
  /**
   * The instance's whole environment as the node holds it. Only providers that need `imageEnvironment`
   * on reconfigure have it: for a container whose image environment was never recorded, it is what
   * this holds beyond the user's variables.
   */
  environment?(
    node: NodeConnection,
    containerId: string,
    signal: AbortSignal,
  ): Promise<Record<string, string>>;
  delete(node: NodeConnection, containerId: string, ctx: OperationContext): Promise<void>;
  /**
   * Runs a command in the running instance, each line of its output (stdout and stderr) logged as it
   * comes. Absent where the node type has no such API (Proxmox VE).
   */
  exec?(
    node: NodeConnection,
    containerId: string,
    spec: ExecSpec,
    ctx: OperationContext,
  ): Promise<{ exitCode: number }>;
  /**
   * Removes what a create that died left on the node: the instance it named through `ctx.made`, if it
   * is there and is the one for `hostname` (a name or id can be reused). False when there is none;
   * throws when the node cannot be asked or refuses.
   */
  discard(node: NodeConnection, made: string, hostname: string, ctx: OperationContext): Promise<boolean>;
  /** Every instance of the node in one call; `reachable:false` instead of throwing or hanging. */
  instances(node: NodeConnection, signal: AbortSignal): Promise<NodeInstances>;
  /** Template storages; empty when the node has no credentials or the call fails. */
  storages(node: NodeConnection, signal: AbortSignal): Promise<StorageInfo[]>;
  stats(node: NodeConnection, signal: AbortSignal): Promise<NodeStats>;
  /**
   * The node's and its running instances' usage, for the metrics history (one sampling round). `at`
   * (epoch ms) is the round's moment: the simulated node derives its figures from it.
   */
  usage(node: NodeConnection, signal: AbortSignal, at: number): Promise<NodeUsage>;
  /**
   * What the node itself recorded of a running instance over about the last hour, a point a minute,
   * oldest first (Proxmox VE's `rrddata`): the metrics history fills a gap with it. Absent where the node
   * keeps no such record.
   */
  usageHistory?(node: NodeConnection, instanceId: string, signal: AbortSignal): Promise<UsagePoint[]>;
  /** The node's CPU platform in OCI names (what it would pull from a manifest list); throws when it cannot be asked. */
  platform(node: NodeConnection, signal: AbortSignal): Promise<Platform>;
  /**
   * The instance's output, oldest first: an engine's logs; a hypervisor's task history of the instance
   * (each task's header and its log lines). Resolves once the node has answered, so a refusal is thrown
   * here; a failure while reading is thrown by the iteration.
   */
  logs(
    node: NodeConnection,
    containerId: string,
    options: LogOptions,
    signal: AbortSignal,
  ): Promise<AsyncIterable<LogLine>>;
  /** Instances to adopt when importing the node. */
  listForImport(node: NodeConnection, signal: AbortSignal): Promise<ImportableInstance[]>;
  /** An interactive shell in the container; absent where the node type has none. */
  terminal?(
    node: NodeConnection,
    containerId: string,
    size: TerminalSize,
    signal: AbortSignal,
  ): Promise<TerminalSession>;
}

/** A provider call failed in a way the job output should explain. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** The node did not answer (refused, timed out, no route, missing socket) or has no credentials. */
export class NodeUnreachableError extends ProviderError {
  constructor(message: string) {
    super(message);
    this.name = 'NodeUnreachableError';
  }
}
