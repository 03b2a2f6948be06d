import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { CONFIG_TABLES } from '../db/tables.ts';

/** Tables whose rows make up a site's configuration snapshot: those migration 006 gave triggers. */
const WATCHED = new Set<string>(CONFIG_TABLES);

function tableName(node: OperationNode | undefined): string | undefined {
  if (!node) return undefined;
  const candidate = node as {
    kind: string;
    table?: OperationNode;
    identifier?: { name?: string };
    node?: OperationNode;
  };
  if (candidate.kind === 'TableNode')
    return (candidate.table as { identifier?: { name?: string } }).identifier?.name;
  if (candidate.kind === 'AliasNode') return tableName(candidate.node);
  return undefined;
}

function writtenTable(node: RootOperationNode): string | undefined {
  switch (node.kind) {
    case 'InsertQueryNode':
      return tableName(node.into);
    case 'UpdateQueryNode':
      return tableName(node.table);
    case 'DeleteQueryNode':
      return tableName(node.from.froms[0]);
    default:
      return undefined;
  }
}

/** Changes are announced to local listeners this long after a write, coalesced. */
const ANNOUNCE_DELAY_MS = 100;

/** How committed changes are heard from the database (PostgreSQL: triggers' NOTIFY, see migration 006). */
export interface ChangeBus {
  /** `onChange` for every committed write, and after a reconnect (something may be missed). */
  subscribe(onChange: () => void): void;
}

/**
 * Notices, as queries are built, every write to a table of the site configuration — wherever in the
 * code it happens — so cached snapshots are rebuilt without every writer having to say so. With a
 * bus (PostgreSQL), every process also hears of each write when its transaction commits: a worker's
 * write reaches the API process's snapshot cache at once, and no snapshot outlives a long transaction.
 *
 * A write does not say which site it touches (an update of `volumes` by id names none), so a change
 * concerns every site, here as in the other processes.
 */
export class ConfigChanges {
  /** When the latest write to a watched table was issued here, or heard committed (ms). */
  lastWriteAt = 0;
  private readonly listeners = new Set<() => void>();
  private announceTimer: NodeJS.Timeout | undefined;

  plugin(): KyselyPlugin {
    return {
      transformQuery: ({ node }: PluginTransformQueryArgs) => {
        const table = writtenTable(node);
        if (table && WATCHED.has(table)) this.written();
        return node;
      },
      transformResult: async ({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> =>
        result,
    };
  }

  /** Calls `listener` shortly after each change, local or announced by another process. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Hears committed changes, this process's and the others', through `bus`. */
  share(bus: ChangeBus): void {
    bus.subscribe(() => this.changed());
  }

  private written() {
    this.lastWriteAt = Date.now();
    // The statement has not run yet (nor its transaction committed): announce a moment later, once.
    this.announceTimer ??= setTimeout(() => {
      this.announceTimer = undefined;
      this.notifyListeners();
    }, ANNOUNCE_DELAY_MS);
    this.announceTimer.unref();
  }

  private changed() {
    this.lastWriteAt = Date.now();
    this.notifyListeners();
  }

  private notifyListeners() {
    for (const listener of [...this.listeners]) listener();
  }
}
