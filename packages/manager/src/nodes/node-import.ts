import type { AuditLog } from '../audit/audit-log.ts';
import type { Kysely } from 'kysely';
import { isDomainName, isIPv4, isMacAddress } from '@app/agent/config-values';
import { badRequest, conflict, normalizeFingerprint, type TlsPolicy } from '@app/server-kit';
import type { ManagerDB } from '../db/schema.ts';
import type { ContainersRepository } from '../containers/containers-repository.ts';
import type { SitesService } from '../sites/sites-service.ts';
import { PveClient } from '../providers/proxmox/pve-client.ts';
import type { ProxmoxProvider } from '../providers/proxmox/proxmox-provider.ts';
import type { ImportableInstance, NodeConnection } from '../providers/types.ts';
import { toNode, NODE_DEFAULTS, type Node, type NodesService } from './nodes-service.ts';
import { fail } from '../errors/catalogue.ts';

export interface ImportInput {
  apiUrl: string;
  username: string;
  password: string;
  tlsVerify?: boolean | undefined;
  tlsFingerprint?: string | undefined;
}

export interface ImportResult {
  nodes: Node[];
  importedContainerCount: number;
}

interface RemoteNode {
  name: string;
  ipv4Address: string | null;
  instances: ImportableInstance[];
}

const importFailed = (error: unknown) =>
  fail(
    'import_failed',
    `Import from the hypervisor cluster failed: ${error instanceof Error ? error.message : String(error)}`,
  );

/**
 * The instance as the site agent's files may carry it: none whose hostname is not a host name, and no
 * MAC or IPv4 address that does not parse (the site agent writes them into dnsmasq).
 */
function adoptable(instance: ImportableInstance): ImportableInstance[] {
  if (!isDomainName(instance.hostname)) return [];
  const { macAddress, ipv4Address } = instance;
  return [
    {
      ...instance,
      macAddress: macAddress && isMacAddress(macAddress) ? macAddress : null,
      ipv4Address: ipv4Address && isIPv4(ipv4Address) ? ipv4Address : null,
    },
  ];
}

/**
 * The TLS check of an import: the root@pam password only ever goes over a verified connection — HTTPS,
 * checked against the CAs (the default) or against a pinned fingerprint. 400 otherwise.
 */
function verifiedTls(input: ImportInput): TlsPolicy & { fingerprint: string | null } {
  if (!input.apiUrl.toLowerCase().startsWith('https://')) {
    throw badRequest('The root@pam password is only sent over verified TLS: the API URL must be https://.', {
      apiUrl: 'must be an https:// URL',
    });
  }
  const given = input.tlsFingerprint?.trim();
  const fingerprint = given ? normalizeFingerprint(given) : null;
  if (fingerprint === undefined) {
    throw badRequest(
      'tlsFingerprint is not a SHA-256 fingerprint (AB:CD:…, 32 bytes, as Proxmox VE shows it).',
      {
        tlsFingerprint: 'must be a SHA-256 fingerprint',
      },
    );
  }
  if (input.tlsVerify === false && !fingerprint) {
    throw badRequest(
      'The root@pam password is never sent over an unverified connection: instead of turning TLS ' +
        "verification off, give the cluster certificate's SHA-256 fingerprint (node → System → Certificates).",
      { tlsFingerprint: 'is required when tlsVerify is false' },
    );
  }
  return { verify: input.tlsVerify ?? true, fingerprint };
}

/**
 * Logs in to a Proxmox VE cluster with a username and password, creates a node for each cluster member
 * (credentials kept as ticket login, sealed) and adopts their LXC containers. Everything is read from the
 * cluster first; the database changes happen in one transaction.
 */
export class NodeImportService {
  constructor(
    private readonly db: Kysely<ManagerDB>,
    private readonly sites: SitesService,
    private readonly nodes: NodesService,
    private readonly containers: ContainersRepository,
    private readonly proxmox: ProxmoxProvider,
    private readonly timeoutMs: number,
    private readonly audit: AuditLog,
  ) {}

  async import(siteId: number, input: ImportInput, ownerUid: number): Promise<ImportResult> {
    const tls = verifiedTls(input);
    await this.sites.assertExists(siteId);
    const remote = await this.readCluster(siteId, input, tls).catch((error: unknown) => {
      throw importFailed(error);
    });
    return this.db.transaction().execute(async (trx) => {
      const nodes: Node[] = [];
      let importedContainerCount = 0;
      for (const member of remote) {
        const existing = await this.nodes.findByName(member.name, trx);
        if (existing && existing.site_id !== siteId) {
          throw conflict(`Node ${member.name} already belongs to another site.`, {
            name: 'is already taken',
          });
        }
        const node = existing
          ? toNode(existing)
          : await this.nodes.create(
              siteId,
              {
                name: member.name,
                nodeType: 'hypervisor',
                ipv4Address: member.ipv4Address,
                apiUrl: input.apiUrl,
                tokenId: input.username,
                secret: input.password,
                tlsVerify: input.tlsVerify ?? null,
                tlsFingerprint: tls.fingerprint,
              },
              trx,
            );
        nodes.push(node);
        for (const instance of member.instances.flatMap(adoptable)) {
          if (await this.containers.clashing(trx, { ...instance, nodeId: node.id })) continue;
          await this.containers.insert(trx, {
            hostname: instance.hostname,
            owner_uid_number: ownerUid,
            node_id: node.id,
            container_id: instance.containerId,
            status: 'running',
            template: instance.template,
            ipv4_address: instance.ipv4Address,
            mac_address: instance.macAddress,
            creation_job_id: null,
            entrypoint: null,
            environment_vars: '{}',
            image_environment: null,
            nvidia_requested: 0,
          });
          importedContainerCount += 1;
        }
      }
      await this.audit.within(trx);
      return { nodes, importedContainerCount };
    });
  }

  private async readCluster(siteId: number, input: ImportInput, tls: TlsPolicy): Promise<RemoteNode[]> {
    const client = new PveClient(
      input.apiUrl,
      tls,
      { kind: 'ticket', username: input.username, password: input.password },
      this.timeoutMs,
    );
    const members = await client.get<Array<{ node: string; status: string }>>('/nodes');
    const addresses = new Map<string, string>();
    try {
      for (const entry of await client.get<Array<{ type: string; name: string; ip?: string }>>(
        '/cluster/status',
      )) {
        if (entry.type === 'node' && entry.ip) addresses.set(entry.name, entry.ip);
      }
    } catch {
      // Addresses are a convenience; a cluster that does not answer this still imports.
    }
    const result: RemoteNode[] = [];
    for (const member of members) {
      const connection: NodeConnection = {
        id: 0,
        name: member.node,
        nodeType: 'hypervisor',
        siteId,
        ipv4Address: null,
        apiUrl: input.apiUrl,
        tokenId: input.username,
        secret: input.password,
        tlsVerify: input.tlsVerify ?? null,
        tlsFingerprint: tls.fingerprint ?? null,
        ...NODE_DEFAULTS,
        nvidiaAvailable: false,
        volumeIdShift: null,
      };
      const instances =
        member.status === 'online'
          ? await this.proxmox.listForImport(connection, AbortSignal.timeout(this.timeoutMs * 4))
          : [];
      result.push({ name: member.node, ipv4Address: addresses.get(member.node) ?? null, instances });
    }
    return result;
  }
}
