import type { Kysely } from 'kysely';
import type { AuditLog } from '../audit/audit-log.ts';
import type { FastifyBaseLogger } from 'fastify';
import { forbidden, retryOnConflict, uniqueViolationColumns } from '@app/server-kit';
import type { ManagerDB } from '../db/schema.ts';
import type { Principal } from '../auth/principal.ts';
import type { SitesService } from '../sites/sites-service.ts';
import type { NodesService } from '../nodes/nodes-service.ts';
import type { SettingsService } from '../settings/settings-service.ts';
import type { UsersRepository } from '../users/users-repository.ts';
import { userNotFound } from '../users/user-rules.ts';
import type { JobsRepository } from '../jobs/jobs-repository.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import type { NodePlatform } from '../providers/types.ts';
import { DEFAULT_PLATFORM } from '../images/platform.ts';
import type { ExternalDomainsRepository } from '../external-domains/external-domains-repository.ts';
import type { CrossSiteDns } from '../dns/cross-site-dns.ts';
import type { HttpNameGuard } from '../dns/http-name-guard.ts';
import type { Notices } from '../notifications/notices.ts';
import type { KeptVolumes } from '../volumes/kept-volumes.ts';
import type { ImageMetadataService } from '../images/image-metadata.ts';
import type { ServicesRepository } from '../services/services-repository.ts';
import {
  parseService,
  referencedDomainIds,
  type NewService,
  type ServiceInput,
} from '../services/service-input.ts';
import { ALLOCATED_COLUMNS, pickIpv4, randomMac } from './addresses.ts';
import { accessTo } from './container-access.ts';
import { CONTAINER_COMMANDS, type ContainerCreatePayload } from './container-jobs.ts';
import { checkHostname, blankToNull, imageOf, mergeEnvironment, type EnvVar } from './container-rules.ts';
import { hostnameTaken } from './hostname-holder.ts';
import { StatusResolver, type ContainerStatus } from './container-status.ts';
import { toContainer, type Container } from './container-view.ts';
import { chooseNode, leastLoadedNode } from './node-choice.ts';
import type { ContainerRecord, ContainersRepository } from './containers-repository.ts';

export interface CreateInput {
  hostname: string;
  template: string;
  customTemplate?: string | undefined;
  entrypoint?: string | null | undefined;
  nvidiaRequested?: boolean | undefined;
  username?: string | undefined;
  collaborators?: string[] | undefined;
  environmentVars?: EnvVar[] | undefined;
  services?: Record<string, ServiceInput> | undefined;
}

export interface ListQuery {
  hostname?: string | undefined;
  nodeId?: number | undefined;
  user?: string[] | undefined;
}

export interface ContainerDeps {
  db: Kysely<ManagerDB>;
  repo: ContainersRepository;
  services: ServicesRepository;
  sites: SitesService;
  nodes: NodesService;
  settings: SettingsService;
  users: UsersRepository;
  jobs: JobsRepository;
  providers: ProviderRegistry;
  domains: ExternalDomainsRepository;
  dns: CrossSiteDns;
  httpNames: HttpNameGuard;
  images: ImageMetadataService;
  keptVolumes: KeptVolumes;
  notices: Notices;
  audit: AuditLog;
  log: FastifyBaseLogger;
}

export const httpNamesOf = (services: NewService[]) =>
  services.flatMap((service) => (service.kind === 'http' ? [service] : []));

/** Containers: list, read, create (with every address allocated in one transaction). */
export class ContainersService {
  readonly status: StatusResolver;

  constructor(private readonly deps: ContainerDeps) {
    this.status = new StatusResolver(deps.nodes, deps.providers);
  }

  async list(principal: Principal, siteId: number, query: ListQuery): Promise<Container[]> {
    const { repo, services } = this.deps;
    const site = await this.deps.sites.get(siteId);
    const names = (query.user ?? []).map((user) => user.trim()).filter(Boolean);
    const owners = names.length ? [...(await this.deps.users.numbersOf(names)).values()] : undefined;
    const hostname = query.hostname?.trim() || undefined;
    // A hostname names one container: ask its node alone, after the read.
    const pending = hostname ? undefined : await this.status.askSite(siteId, query.nodeId);
    const records = await repo.list({
      siteId,
      hostname,
      nodeId: query.nodeId,
      owners,
      visibleTo: principal.isAdmin ? undefined : principal.uidNumber,
    });
    if (!records.length) return [];
    const [statuses, serviceMap, collaboratorMap, sshHost] = await Promise.all([
      this.status.resolve(records, pending),
      services.forSite(siteId),
      repo.collaboratorsForSite(siteId),
      this.sshHost(site),
    ]);
    return records.map((record) =>
      toContainer(record, {
        status: statuses.get(record.id) ?? 'unknown',
        services: serviceMap.get(record.id) ?? [],
        collaborators: collaboratorMap.get(record.id) ?? [],
        site: { sshHost },
        showNodeAddress: principal.isAdmin,
      }),
    );
  }

  /** A container the caller may see (owner, collaborator, admin). */
  async record(principal: Principal, siteId: number, id: number, wanted: 'read' | 'manage') {
    await this.deps.sites.assertExists(siteId);
    return accessTo(this.deps.repo, principal, await this.deps.repo.get(siteId, id), wanted);
  }

  async get(principal: Principal, siteId: number, id: number): Promise<Container> {
    return this.view(await this.record(principal, siteId, id, 'read'), principal);
  }

  async view(record: ContainerRecord, viewer: Principal): Promise<Container> {
    const site = await this.deps.sites.get(record.siteId);
    const [statuses, services, collaborators, sshHost] = await Promise.all([
      this.status.resolve([record]),
      this.deps.services.forContainer(record.id),
      this.deps.repo.collaborators(record.id),
      this.sshHost(site),
    ]);
    return toContainer(record, {
      status: statuses.get(record.id) ?? 'unknown',
      services,
      collaborators,
      site: { sshHost },
      showNodeAddress: viewer.isAdmin,
    });
  }

  /** SSH goes to the site's own first external domain, else to its external IP. */
  private async sshHost(site: { id: number; externalIp: string | null }): Promise<string | null> {
    return (await this.deps.domains.primaryNameOf(site.id)) ?? site.externalIp;
  }

  async newForm(siteId: number) {
    await this.deps.sites.assertExists(siteId);
    const [domains, nodes] = await Promise.all([
      this.deps.domains.forForm(siteId),
      this.deps.nodes.rowsOfSite(siteId),
    ]);
    return {
      siteId,
      externalDomains: domains.map((domain) => ({ id: domain.id, name: domain.name, siteId: domain.siteId })),
      nvidiaAvailable: nodes.some((node) => Boolean(node.nvidia_available)),
    };
  }

  /** The uidNumber of an existing user (any status), or 404 user_not_found: for owners set by an admin. */
  async ownerNumber(username: string): Promise<number> {
    const user = await this.deps.users.findByUid(username);
    if (!user) throw userNotFound(username);
    return user.uid_number;
  }

  /**
   * The uidNumbers of active users, for sharing: a pending, suspended or unknown name gets the same
   * 404 user_not_found, so sharing never tells which accounts exist.
   */
  async collaboratorNumbers(usernames: string[]): Promise<number[]> {
    const numbers: number[] = [];
    for (const username of usernames) {
      const user = await this.deps.users.findByUid(username);
      if (user?.status !== 'active') throw userNotFound(username);
      numbers.push(user.uid_number);
    }
    return numbers;
  }

  /** Service entries checked against the external domains they name (400 invalid_service). */
  async parseServices(entries: Record<string, ServiceInput>): Promise<NewService[]> {
    const domains = await this.deps.domains.byIds(referencedDomainIds(entries));
    return Object.entries(entries).map(([key, entry]) => parseService(key, entry, domains));
  }

  async create(
    principal: Principal,
    siteId: number,
    input: CreateInput,
  ): Promise<{ containerId: number; jobId: number; hostname: string; status: ContainerStatus }> {
    const { db, repo, jobs } = this.deps;
    const site = await this.deps.sites.get(siteId);
    const hostname = checkHostname(input.hostname);
    const holder = await repo.findAnyByHostname(hostname);
    if (holder) throw hostnameTaken(hostname, holder, principal, siteId);
    const image = imageOf(input.template, input.customTemplate);
    // The node pulls the image: a user's choice of registry is held to the outbound policy.
    if (!principal.isAdmin) await this.deps.images.assertPullable(image);
    const owner = input.username?.trim() || principal.uid;
    if (owner !== principal.uid && !principal.isAdmin) {
      throw forbidden('Only administrators can create containers for another user.');
    }
    const ownerUid = owner === principal.uid ? principal.uidNumber : await this.ownerNumber(owner);
    const collaborators = await this.collaboratorNumbers([
      ...new Set((input.collaborators ?? []).map((name) => name.trim()).filter(Boolean)),
    ]);
    const services = await this.parseServices(input.services ?? {});
    await this.deps.httpNames.admit(principal, site, httpNamesOf(services));
    const defaults = (await this.deps.settings.get()).defaultContainerEnvVars;
    const environment = mergeEnvironment(defaults, input.environmentVars);
    const nvidia = Boolean(input.nvidiaRequested);
    const node = chooseNode(...(await this.nodeLoad(siteId)), nvidia);

    const created = await this.insertCreate(principal, siteId, hostname, () =>
      retryOnConflict(ALLOCATED_COLUMNS, () =>
        db.transaction().execute(async (trx) => {
          const job = await jobs.insertIn(trx, CONTAINER_COMMANDS.create, principal.uidNumber, {});
          const used = await repo.usedAddresses(trx);
          let macAddress = randomMac();
          while (used.macs.has(macAddress)) macAddress = randomMac();
          const containerId = await repo.insert(trx, {
            hostname,
            owner_uid_number: ownerUid,
            node_id: node.id,
            container_id: null,
            status: 'pending',
            template: image,
            ipv4_address: pickIpv4(site.dhcpRange, site.gateway, used.ipv4s),
            mac_address: macAddress,
            creation_job_id: job.id,
            entrypoint: blankToNull(input.entrypoint),
            environment_vars: JSON.stringify(environment),
            image_environment: null, // the create job records it
            nvidia_requested: nvidia ? 1 : 0,
          });
          // The payload names the container; it is only known now, inside the same transaction.
          const payload: ContainerCreatePayload = { containerId };
          await jobs.setPayload(trx, job.id, payload);
          const sharedWith = collaborators.filter((uid) => uid !== ownerUid);
          await repo.addCollaborators(containerId, sharedWith, trx);
          await this.deps.notices.containerShared(
            trx,
            { id: containerId, siteId, hostname },
            principal.uid,
            sharedWith.filter((uid) => uid !== principal.uidNumber),
          );
          for (const service of services) await this.deps.services.insert(trx, containerId, service);
          await this.deps.audit.within(trx, { type: 'container', id: containerId, containerId, siteId });
          return { containerId, jobId: job.id };
        }),
      ),
    );
    await jobs.announceNew(created.jobId);
    return { ...created, hostname, status: 'creating' };
  }

  /** Runs the create's insert; a concurrent create that took the hostname first is a named 409. */
  private async insertCreate<T>(
    principal: Principal,
    siteId: number,
    hostname: string,
    insert: () => Promise<T>,
  ): Promise<T> {
    try {
      return await insert();
    } catch (error) {
      if (!uniqueViolationColumns(error)?.includes('hostname')) throw error;
      throw hostnameTaken(hostname, await this.deps.repo.findAnyByHostname(hostname), principal, siteId);
    }
  }

  private async nodeLoad(siteId: number) {
    return [await this.deps.nodes.rowsOfSite(siteId), await this.deps.repo.countsByNode(siteId)] as const;
  }

  /**
   * The platform of the node a create on this site would choose now (without a GPU): the image
   * metadata describes that image by default. amd64 when no node can take a container.
   */
  async platformForNewContainer(siteId: number): Promise<NodePlatform> {
    const node = leastLoadedNode(...(await this.nodeLoad(siteId)), false);
    if (!node) return DEFAULT_PLATFORM;
    return this.deps.providers.platform(await this.deps.nodes.connectionById(node.id));
  }
}
