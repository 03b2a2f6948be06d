import type { NodeType } from '../nodes/node-rules.ts';
import { DEFAULT_PLATFORM } from '../images/platform.ts';
import type {
  NodeConnection,
  NodeInstances,
  NodePlatform,
  NodeStats,
  NodeUsage,
  Provider,
  StorageInfo,
  UsagePoint,
} from './types.ts';

export interface RegistryOptions {
  /** Bound on status, stats and storages calls. */
  timeoutMs: number;
  /** How long one node's batch status is reused (a container list asks once per node). */
  statusCacheMs: number;
  /** How long a node's platform is reused once it answered (default an hour; a host keeps its CPU). */
  platformCacheMs?: number;
}

interface PlatformEntry {
  at: number;
  /** The node's type and address when asked: an edited node is asked again. */
  host: string;
  keepMs: number;
  answer: Promise<NodePlatform>;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Resolves after `ms` with `fallback`, so a provider that ignores its signal still cannot hang a request. */
async function bounded<T>(
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
  fallback: (reason: string) => T,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<T>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error('timed out'));
      resolve(fallback(`no answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([
      work(controller.signal).catch((error: unknown) => fallback(describe(error))),
      deadline,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Chooses the provider for a node's type; wraps read calls with a timeout and a short status cache. */
export class ProviderRegistry {
  private readonly statusCache = new Map<number, { at: number; answer: Promise<NodeInstances> }>();
  private readonly platformCache = new Map<number, PlatformEntry>();

  constructor(
    private readonly providers: Record<NodeType, Provider>,
    private readonly options: RegistryOptions,
  ) {}

  for(node: Pick<NodeConnection, 'nodeType'>): Provider {
    return this.providers[node.nodeType];
  }

  /** Batch status of one node; `reachable:false` within the timeout when it cannot be asked. */
  instances(node: NodeConnection): Promise<NodeInstances> {
    const cached = this.statusCache.get(node.id);
    if (cached && Date.now() - cached.at < this.options.statusCacheMs) return cached.answer;
    const answer = bounded(
      this.options.timeoutMs,
      (signal) => this.for(node).instances(node, signal),
      (reason): NodeInstances => ({ reachable: false, reason }),
    );
    this.statusCache.set(node.id, { at: Date.now(), answer });
    return answer;
  }

  /**
   * The node's CPU platform. An answer is kept per node and address (`platformCacheMs`); a node that
   * cannot be asked within the timeout gives amd64 with the reason in `assumed`, never an error, and
   * that guess is kept only as long as a status.
   */
  platform(node: NodeConnection): Promise<NodePlatform> {
    const host = `${node.nodeType} ${node.apiUrl ?? ''}`;
    const cached = this.platformCache.get(node.id);
    if (cached && cached.host === host && Date.now() - cached.at < cached.keepMs) return cached.answer;
    const entry: PlatformEntry = {
      at: Date.now(),
      host,
      keepMs: this.options.platformCacheMs ?? 60 * 60_000,
      answer: Promise.resolve(DEFAULT_PLATFORM),
    };
    entry.answer = bounded(
      this.options.timeoutMs,
      (signal): Promise<NodePlatform> => this.for(node).platform(node, signal),
      (reason): NodePlatform => {
        entry.keepMs = this.options.statusCacheMs;
        return { ...DEFAULT_PLATFORM, assumed: reason };
      },
    );
    this.platformCache.set(node.id, entry);
    return entry.answer;
  }

  /** Forgets a node's cached status (after an operation changed it). */
  invalidate(nodeId: number) {
    this.statusCache.delete(nodeId);
  }

  storages(node: NodeConnection): Promise<StorageInfo[]> {
    return bounded(
      this.options.timeoutMs,
      (signal) => this.for(node).storages(node, signal),
      () => [],
    );
  }

  /** The node's usage at `at`, or why it could not be asked (within the timeout). */
  usage(node: NodeConnection, at: number): Promise<NodeUsage | { failed: string }> {
    return bounded<NodeUsage | { failed: string }>(
      this.options.timeoutMs,
      (signal) => this.for(node).usage(node, signal, at),
      (reason) => ({ failed: reason }),
    );
  }

  /** An instance's recorded last hour (empty where the node keeps none, or cannot be asked in time). */
  usageHistory(node: NodeConnection, instanceId: string): Promise<UsagePoint[]> {
    const provider = this.for(node);
    if (!provider.usageHistory) return Promise.resolve([]);
    return bounded(
      this.options.timeoutMs,
      (signal) => provider.usageHistory!(node, instanceId, signal),
      () => [],
    );
  }

  stats(node: NodeConnection): Promise<NodeStats> {
    return bounded(
      this.options.timeoutMs,
      (signal) => this.for(node).stats(node, signal),
      (reason): NodeStats => ({ available: false, reason }),
    );
  }
}
