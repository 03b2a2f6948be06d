import { forbidden, notFound, validationFailed } from '@app/server-kit';
import type { Principal } from '../auth/principal.ts';
import type { SitesService } from '../sites/sites-service.ts';
import type { JobsRepository } from '../jobs/jobs-repository.ts';
import type { ContainerRecord, ContainersRepository } from '../containers/containers-repository.ts';
import type { UsersRepository } from '../users/users-repository.ts';
import { userNotFound } from '../users/user-rules.ts';
import { CONTAINER_COMMANDS, type ContainerApplyPayload } from '../containers/container-jobs.ts';
import {
  RESOURCE_DEFAULTS,
  RESOURCE_TYPES,
  SYSTEM_REVIEWER,
  toResources,
  type EffectiveResources,
  type RequestFilter,
  type ResourceRequest,
  type ResourceRequestsRepository,
  type ResourceType,
} from './resource-requests-repository.ts';
import { fail } from '../errors/catalogue.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import type { Transaction } from 'kysely';
import type { ManagerDB } from '../db/schema.ts';

export interface RequestInput {
  siteId: number;
  hostname: string;
  resourceType: string;
  value: number;
  comment?: string | null | undefined;
  /** Administrators may file for another user (default: the caller). */
  username?: string | undefined;
}

const LIMITS: Record<ResourceType, number> = {
  cpus: 256,
  memory: 4_194_304,
  swap: 4_194_304,
  rootfs: 65_536,
};

/**
 * Resource requests: users ask for more than the defaults; administrators review. Within the defaults
 * (or filed by an administrator) a request is approved at once by `system`. An approved value sizes
 * new containers of that hostname and is applied to an existing one through a job.
 */
export class ResourceRequestsService {
  constructor(
    private readonly repo: ResourceRequestsRepository,
    private readonly sites: SitesService,
    private readonly containers: ContainersRepository,
    private readonly jobs: JobsRepository,
    private readonly users: UsersRepository,
    private readonly audit: AuditLog,
  ) {}

  list(principal: Principal, filter: RequestFilter): Promise<ResourceRequest[]> {
    return this.repo.list({ ...filter, ...(principal.isAdmin ? {} : { uidNumber: principal.uidNumber }) });
  }

  count(principal: Principal): Promise<number> {
    return this.repo.countPending(principal.isAdmin ? undefined : principal.uidNumber);
  }

  async effective(principal: Principal, siteId: number, hostname: string, username: string) {
    if (!principal.isAdmin && username !== principal.uid) {
      throw forbidden('You can only see your own resource allowances.');
    }
    await this.sites.assertExists(siteId);
    const uidNumber = (await this.users.numbersOf([username])).get(username);
    if (uidNumber === undefined) return { ...RESOURCE_DEFAULTS };
    return this.repo.effective(siteId, hostname, uidNumber);
  }

  /** The requester: the caller, or for administrators the user they name. */
  private async requester(principal: Principal, username: string | undefined): Promise<number> {
    const name = principal.isAdmin ? username?.trim() : undefined;
    if (!name || name === principal.uid) return principal.uidNumber;
    const uidNumber = (await this.users.numbersOf([name])).get(name);
    if (uidNumber === undefined) throw userNotFound(name);
    return uidNumber;
  }

  async create(principal: Principal, input: RequestInput): Promise<ResourceRequest> {
    const uidNumber = await this.requester(principal, input.username);
    const type = input.resourceType.trim().toLowerCase() as ResourceType;
    const hostname = input.hostname.trim().toLowerCase();
    const fields: Record<string, string> = {};
    if (!RESOURCE_TYPES.includes(type)) fields.resourceType = `must be one of ${RESOURCE_TYPES.join(', ')}`;
    else if (input.value < (type === 'swap' ? 0 : 1) || input.value > LIMITS[type]) {
      fields.value = `must be between ${type === 'swap' ? 0 : 1} and ${LIMITS[type]}`;
    }
    if (!hostname) fields.hostname = 'must not be blank';
    if (Object.keys(fields).length) throw validationFailed(fields);
    await this.sites.assertExists(input.siteId);
    const container = await this.containers.findByHostname(input.siteId, hostname);
    if (container && !principal.isAdmin && container.ownerUid !== principal.uidNumber) {
      throw forbidden('Only the owner of a container can ask for its resources.');
    }
    const auto = principal.isAdmin || input.value <= RESOURCE_DEFAULTS[type];
    const now = new Date().toISOString();
    const { request, jobId } = await this.audit.audited(
      async (trx) => {
        const request = await this.repo.insert(
          {
            site_id: input.siteId,
            hostname,
            uid_number: uidNumber,
            resource_type: type,
            value: input.value,
            status: auto ? 'approved' : 'pending',
            comment: input.comment?.trim() || null,
            admin_comment: null,
            reviewed_by_uid_number: auto ? SYSTEM_REVIEWER : null,
            reviewed_at: auto ? now : null,
          },
          trx,
        );
        const jobId = auto ? await this.applyToContainer(trx, request, container, principal.uidNumber) : null;
        return { request, jobId };
      },
      ({ request }) => ({ type: 'resource_request', id: request.id, siteId: request.siteId }),
    );
    await this.announce(jobId);
    return request;
  }

  async review(
    principal: Principal,
    id: number,
    decision: 'approved' | 'denied',
    adminComment?: string | null,
  ) {
    const existing = await this.repo.get(id);
    if (!existing) throw notFound('Resource request not found.');
    const container = await this.containers.findByHostname(existing.siteId, existing.hostname);
    const { reviewed, jobId } = await this.audit.audited(async (trx) => {
      const reviewed = await this.repo.review(
        id,
        decision,
        principal.uidNumber,
        adminComment?.trim() || null,
        trx,
      );
      if (!reviewed) {
        throw fail('already_reviewed', `The request was already ${existing.status}.`);
      }
      const approved = decision === 'approved';
      const jobId = approved
        ? await this.applyToContainer(trx, reviewed, container, principal.uidNumber)
        : null;
      return { reviewed, jobId };
    });
    await this.announce(jobId);
    return { ...reviewed, jobId };
  }

  /** Queues in `trx` the resize of `container`, the one of the request's hostname, when the requester owns it. */
  private async applyToContainer(
    trx: Transaction<ManagerDB>,
    request: ResourceRequest,
    container: ContainerRecord | undefined,
    by: number,
  ): Promise<number | null> {
    if (!container?.containerId || container.ownerUid !== request.uidNumber) return null;
    const values: EffectiveResources = await this.repo.effective(
      request.siteId,
      request.hostname,
      request.uidNumber,
      trx,
    );
    const payload: ContainerApplyPayload = {
      containerId: container.id,
      reconfigure: { resources: toResources(values) },
      restart: false,
    };
    return (await this.jobs.insertIn(trx, CONTAINER_COMMANDS.apply, by, payload)).id;
  }

  /** A job queued in a committed transaction, for the workers. */
  private async announce(jobId: number | null) {
    if (jobId !== null) await this.jobs.announceNew(jobId);
  }
}
