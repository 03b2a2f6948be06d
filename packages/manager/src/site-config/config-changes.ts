import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

/** Tables whose rows make up a site's configuration snapshot. */
const WATCHED = new Set([
  'sites',
  'nodes',
  'containers',
  'services',
  'http_services',
  'transport_services',
  'dns_services',
  'external_domains',
  'volumes',
]);

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

/**
 * Notices, as queries are built, every write to a table of the site configuration — wherever in the
 * code it happens — so cached snapshots are rebuilt without every writer having to say so.
 */
export class ConfigChanges {
  /** When the latest write to a watched table was issued (ms). */
  lastWriteAt = 0;

  plugin(): KyselyPlugin {
    return {
      transformQuery: ({ node }: PluginTransformQueryArgs) => {
        const table = writtenTable(node);
        if (table && WATCHED.has(table)) this.lastWriteAt = Date.now();
        return node;
      },
      transformResult: async ({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> =>
        result,
    };
  }
}
