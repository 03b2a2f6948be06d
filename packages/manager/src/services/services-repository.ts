import type { Kysely, Transaction } from 'kysely';
import type { ManagerDB } from '../db/schema.ts';
import { nowIso } from '../common/time.ts';
import { pickPort } from '../containers/addresses.ts';
import type { HttpToggles, NewService } from './service-input.ts';

type Db = Kysely<ManagerDB> | Transaction<ManagerDB>;

export interface ContainerService {
  id: number;
  type: 'http' | 'transport' | 'dns';
  internalPort: number;
  lastAccessedAt: string | null;
  httpService:
    | ({
        id: number;
        externalHostname: string;
        externalDomainId: number;
        backendProtocol: 'http' | 'https';
        domain: string | null;
      } & HttpToggles)
    | null;
  transportService: { id: number; protocol: 'tcp' | 'udp'; externalPort: number } | null;
  dnsService: { id: number; recordType: 'SRV'; dnsName: string } | null;
}

/** Services of containers: one query for a whole site (lists) or one container. */
export class ServicesRepository {
  constructor(
    private readonly db: Kysely<ManagerDB>,
    private readonly portRange: { min: number; max: number },
  ) {}

  private select(db: Db) {
    return db
      .selectFrom('services')
      .leftJoin('http_services', 'http_services.service_id', 'services.id')
      .leftJoin('external_domains', 'external_domains.id', 'http_services.external_domain_id')
      .leftJoin('transport_services', 'transport_services.service_id', 'services.id')
      .leftJoin('dns_services', 'dns_services.service_id', 'services.id')
      .select([
        'services.id',
        'services.container_id',
        'services.type',
        'services.internal_port',
        'services.last_accessed_at',
        'http_services.id as http_id',
        'http_services.external_hostname',
        'http_services.external_domain_id',
        'http_services.backend_protocol',
        'http_services.auth_required',
        'http_services.redirect_https',
        'http_services.hsts',
        'external_domains.name as domain',
        'transport_services.id as transport_id',
        'transport_services.protocol',
        'transport_services.external_port',
        'dns_services.id as dns_id',
        'dns_services.record_type',
        'dns_services.dns_name',
      ])
      .orderBy('services.id');
  }

  /** Services of every container on the site's nodes, by container id. */
  async forSite(siteId: number): Promise<Map<number, ContainerService[]>> {
    const rows = await this.select(this.db)
      .innerJoin('containers', 'containers.id', 'services.container_id')
      .innerJoin('nodes', 'nodes.id', 'containers.node_id')
      .where('nodes.site_id', '=', siteId)
      .execute();
    return group(rows);
  }

  async forContainer(containerId: number, db: Db = this.db): Promise<ContainerService[]> {
    const rows = await this.select(db).where('services.container_id', '=', containerId).execute();
    return group(rows).get(containerId) ?? [];
  }

  /** Inserts one service; a transport service gets a free external port of the configured range. */
  async insert(db: Db, containerId: number, service: NewService): Promise<number> {
    const now = nowIso();
    const { id } = await db
      .insertInto('services')
      .values({
        container_id: containerId,
        type: service.kind,
        internal_port: service.internalPort,
        last_accessed_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (service.kind === 'http') {
      await db
        .insertInto('http_services')
        .values({
          service_id: id,
          external_hostname: service.externalHostname,
          external_domain_id: service.externalDomainId,
          backend_protocol: service.backendProtocol,
          auth_required: service.authRequired ? 1 : 0,
          redirect_https: service.redirectHttps ? 1 : 0,
          hsts: service.hsts ? 1 : 0,
        })
        .execute();
    } else if (service.kind === 'transport') {
      const used = await db
        .selectFrom('transport_services')
        .select('external_port')
        .where('protocol', '=', service.protocol)
        .where('external_port', '>=', this.portRange.min)
        .where('external_port', '<=', this.portRange.max)
        .execute();
      await db
        .insertInto('transport_services')
        .values({
          service_id: id,
          protocol: service.protocol,
          external_port: pickPort(
            this.portRange,
            used.map((row) => row.external_port),
          ),
          use_tls: 0,
        })
        .execute();
    } else {
      await db
        .insertInto('dns_services')
        .values({ service_id: id, record_type: 'SRV', dns_name: service.dnsName })
        .execute();
    }
    return id;
  }

  async delete(db: Db, containerId: number, serviceId: number): Promise<boolean> {
    const result = await db
      .deleteFrom('services')
      .where('id', '=', serviceId)
      .where('container_id', '=', containerId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async setToggles(db: Db, httpServiceId: number, toggles: Partial<HttpToggles>): Promise<void> {
    const bit = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
    await db
      .updateTable('http_services')
      .set({
        auth_required: bit(toggles.authRequired),
        redirect_https: bit(toggles.redirectHttps),
        hsts: bit(toggles.hsts),
      })
      .where('id', '=', httpServiceId)
      .execute();
  }
}

type Row = Awaited<ReturnType<ReturnType<ServicesRepository['select']>['execute']>>[number];

function group(rows: Row[]): Map<number, ContainerService[]> {
  const byContainer = new Map<number, ContainerService[]>();
  for (const row of rows) {
    let list = byContainer.get(row.container_id);
    if (!list) byContainer.set(row.container_id, (list = []));
    list.push({
      id: row.id,
      type: row.type,
      internalPort: row.internal_port,
      lastAccessedAt: row.last_accessed_at,
      httpService:
        row.http_id === null
          ? null
          : {
              id: row.http_id,
              externalHostname: row.external_hostname!,
              externalDomainId: row.external_domain_id!,
              backendProtocol: row.backend_protocol!,
              authRequired: Boolean(row.auth_required),
              redirectHttps: Boolean(row.redirect_https),
              hsts: Boolean(row.hsts),
              domain: row.domain,
            },
      transportService:
        row.transport_id === null
          ? null
          : { id: row.transport_id, protocol: row.protocol!, externalPort: row.external_port! },
      dnsService: row.dns_id === null ? null : { id: row.dns_id, recordType: 'SRV', dnsName: row.dns_name! },
    });
  }
  return byContainer;
}
