import type { Selectable, Transaction } from 'kysely';
import {
  isForeignKeyViolation,
  normalizeFingerprint,
  notFound,
  validationFailed,
  type SecretBox,
} from '@app/server-kit';
import type { ManagerDB, NodesTable } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';
import type { SitesService } from '../sites/sites-service.ts';
import type { NodeConnection } from '../providers/types.ts';
import { checkEngineHost, nodeRuleViolations, parseNodeType, type NodeType } from './node-rules.ts';
import { secretStaysWith } from './node-destination.ts';
import type { NodesRepository } from './nodes-repository.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import { fail } from '../errors/catalogue.ts';

/** A node as the API shows it: its connection without the secret, and whether it has one. */
export type Node = Omit<NodeConnection, 'secret'> & { hasSecret: boolean };

/** NodeInput as it arrives; blank strings already mean "not given". */
export interface NodeInput {
  name: string;
  nodeType?: string | undefined;
  ipv4Address?: string | null | undefined;
  apiUrl?: string | null | undefined;
  tokenId?: string | null | undefined;
  secret?: string | null | undefined;
  tlsVerify?: boolean | null | undefined;
  tlsFingerprint?: string | null | undefined;
  imageStorage?: string | null | undefined;
  volumeStorage?: string | null | undefined;
  networkBridge?: string | null | undefined;
  nvidiaAvailable?: boolean | null | undefined;
  volumeIdShift?: number | null | undefined;
}

export const NODE_DEFAULTS = {
  imageStorage: 'local',
  volumeStorage: 'local-lvm',
  networkBridge: 'vmbr0',
} as const;

export const nodeNotFound = () => notFound('Node not found.');

export class NodesService {
  constructor(
    private readonly nodes: NodesRepository,
    private readonly sites: SitesService,
    private readonly secrets: SecretBox,
    private readonly audit: AuditLog,
  ) {}

  async list(siteId: number): Promise<Node[]> {
    await this.sites.assertExists(siteId);
    return (await this.nodes.ofSite(siteId)).map(toNode);
  }

  private async row(siteId: number, id: number) {
    const row = await this.nodes.inSite(siteId, id);
    if (!row) {
      await this.sites.assertExists(siteId);
      throw nodeNotFound();
    }
    return row;
  }

  async get(siteId: number, id: number): Promise<Node> {
    return toNode(await this.row(siteId, id));
  }

  /** The node with its opened secret, for providers. */
  async connection(siteId: number, id: number): Promise<NodeConnection> {
    return this.toConnection(await this.row(siteId, id));
  }

  async connectionById(id: number): Promise<NodeConnection> {
    const row = await this.nodes.byId(id);
    if (!row) throw nodeNotFound();
    return this.toConnection(row);
  }

  /** Several nodes with their opened secrets, in one query (container lists resolve status per node). */
  async connectionsByIds(ids: number[]): Promise<NodeConnection[]> {
    return (await this.nodes.byIds(ids)).map((row) => this.toConnection(row));
  }

  /** A site's nodes (or one of them) with their opened secrets. */
  async connectionsOfSite(siteId: number, nodeId?: number): Promise<NodeConnection[]> {
    return (await this.nodes.ofSite(siteId, nodeId)).map((row) => this.toConnection(row));
  }

  /** The site's nodes as rows (for the choice of a node to create a container on). */
  async rowsOfSite(siteId: number) {
    return this.nodes.ofSite(siteId);
  }

  async create(siteId: number, input: NodeInput, db?: Transaction<ManagerDB>): Promise<Node> {
    const nodeType = parseNodeType(input.nodeType ?? 'hypervisor');
    const values = this.columns(input, nodeType);
    await this.sites.assertExists(siteId, db);
    const now = nowIso();
    const columns = {
      ...values,
      site_id: siteId,
      secret_sealed: input.secret ? this.secrets.seal(input.secret) : null,
      created_at: now,
      updated_at: now,
    };
    const row = db
      ? await this.nodes.insert(columns, db)
      : await this.audit.audited(
          (trx) => this.nodes.insert(columns, trx),
          (created) => ({ type: 'node', id: created.id, siteId }),
        );
    return toNode(row);
  }

  /**
   * Full update: omitted fields go back to their defaults; nodeType is kept, and so is a blank secret —
   * unless the node now points elsewhere (see secretStaysWith), which drops it.
   */
  async update(siteId: number, id: number, input: NodeInput): Promise<Node> {
    const current = await this.row(siteId, id);
    const nodeType = input.nodeType === undefined ? current.node_type : parseNodeType(input.nodeType);
    const values = this.columns(input, nodeType);
    const stays = secretStaysWith(destinationOf(current), destinationOf(values));
    const columns = {
      ...values,
      ...(input.secret
        ? { secret_sealed: this.secrets.seal(input.secret) }
        : stays
          ? {}
          : { secret_sealed: null }),
      updated_at: nowIso(),
    };
    const row = await this.audit.audited((trx) => this.nodes.update(siteId, id, columns, trx));
    if (!row) throw nodeNotFound();
    return toNode(row);
  }

  /**
   * The connection a node form describes, without saving it, to try it: the secret given, or for a
   * saved node (`id`) with a blank secret the stored one, if it stays with the destination (as update).
   */
  async draft(siteId: number, input: NodeInput, id?: number): Promise<NodeConnection> {
    const current = id === undefined ? undefined : await this.row(siteId, id);
    if (!current) await this.sites.assertExists(siteId);
    const nodeType =
      current && input.nodeType === undefined
        ? current.node_type
        : parseNodeType(input.nodeType ?? 'hypervisor');
    const values = this.columns(input, nodeType);
    const stored =
      current?.secret_sealed && secretStaysWith(destinationOf(current), destinationOf(values))
        ? this.secrets.open(current.secret_sealed)
        : null;
    const now = nowIso();
    const { hasSecret: _hasSecret, ...node } = toNode({
      ...values,
      id: id ?? 0,
      site_id: siteId,
      secret_sealed: null,
      created_at: now,
      updated_at: now,
    });
    return { ...node, secret: input.secret || stored };
  }

  async delete(siteId: number, id: number): Promise<void> {
    await this.row(siteId, id);
    if ((await this.nodes.containerCount(id)) > 0) throw hasContainers();
    try {
      await this.audit.audited((trx) => this.nodes.delete(siteId, id, trx));
    } catch (error) {
      if (isForeignKeyViolation(error)) throw hasContainers();
      throw error;
    }
  }

  findByName(name: string, db?: Transaction<ManagerDB>) {
    return this.nodes.byName(name, db);
  }

  private columns(input: NodeInput, nodeType: NodeType) {
    const node = {
      name: input.name.trim(),
      nodeType,
      ipv4Address: input.ipv4Address ?? null,
      apiUrl: input.apiUrl ?? null,
      tlsFingerprint: input.tlsFingerprint ?? null,
      volumeIdShift: input.volumeIdShift ?? null,
    };
    if (nodeType === 'engine') checkEngineHost(node.apiUrl);
    const fields = nodeRuleViolations(node);
    if (Object.keys(fields).length) throw validationFailed(fields);
    return {
      name: node.name,
      node_type: nodeType,
      ipv4_address: node.ipv4Address,
      api_url: node.apiUrl,
      token_id: input.tokenId ?? null,
      tls_verify: input.tlsVerify === undefined || input.tlsVerify === null ? null : input.tlsVerify ? 1 : 0,
      tls_fingerprint: node.tlsFingerprint === null ? null : normalizeFingerprint(node.tlsFingerprint)!,
      image_storage: input.imageStorage ?? NODE_DEFAULTS.imageStorage,
      volume_storage: input.volumeStorage ?? NODE_DEFAULTS.volumeStorage,
      network_bridge: input.networkBridge ?? NODE_DEFAULTS.networkBridge,
      nvidia_available: input.nvidiaAvailable ? 1 : 0,
      volume_id_shift: node.volumeIdShift,
    };
  }

  private toConnection(row: Selectable<NodesTable>): NodeConnection {
    const { hasSecret: _hasSecret, ...node } = toNode(row);
    return { ...node, secret: row.secret_sealed ? this.secrets.open(row.secret_sealed) : null };
  }
}

const destinationOf = (row: {
  api_url: string | null;
  tls_verify: number | null;
  tls_fingerprint: string | null;
}) => ({
  apiUrl: row.api_url,
  tlsVerify: row.tls_verify === null ? null : Boolean(row.tls_verify),
  tlsFingerprint: row.tls_fingerprint,
});

const hasContainers = () => fail('has_containers', 'Delete or move the containers of this node first.');

export const toNode = (row: Selectable<NodesTable>): Node => ({
  id: row.id,
  name: row.name,
  nodeType: row.node_type,
  siteId: row.site_id,
  ipv4Address: row.ipv4_address,
  apiUrl: row.api_url,
  tokenId: row.token_id,
  tlsVerify: row.tls_verify === null ? null : Boolean(row.tls_verify),
  tlsFingerprint: row.tls_fingerprint,
  imageStorage: row.image_storage,
  volumeStorage: row.volume_storage,
  networkBridge: row.network_bridge,
  nvidiaAvailable: Boolean(row.nvidia_available),
  volumeIdShift: row.volume_id_shift,
  hasSecret: row.secret_sealed !== null,
});
