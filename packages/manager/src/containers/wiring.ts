import type { ManagerContext } from '../context.ts';
import type { FleetServices } from '../fleet.ts';
import type { SettingsService } from '../settings/settings-service.ts';
import type { UsersRepository } from '../users/users-repository.ts';
import type { Notices } from '../notifications/notices.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import { ExternalDomainsRepository } from '../external-domains/external-domains-repository.ts';
import { CloudflareClient } from '../dns/cloudflare-client.ts';
import { CrossSiteDns } from '../dns/cross-site-dns.ts';
import { HttpNameGuard } from '../dns/http-name-guard.ts';
import { ServicesRepository } from '../services/services-repository.ts';
import { ImageMetadataService } from '../images/image-metadata.ts';
import { ResourceRequestsRepository } from '../resource-requests/resource-requests-repository.ts';
import { ResourceRequestsService } from '../resource-requests/resource-requests-service.ts';
import { ContainersRepository } from './containers-repository.ts';
import { ContainersService, type ContainerDeps } from './containers-service.ts';
import { ContainerUpdates } from './container-update.ts';
import { CollaboratorsService } from './collaborators-service.ts';
import { ContainerHistory } from './container-history.ts';
import { ContainerLogs } from './container-logs.ts';
import { LogFollows } from './log-follows.ts';
import { FailureNotices } from './failure-notices.ts';
import { NotificationsRepository } from '../notifications/notifications-repository.ts';
import { registerContainerJobs } from './container-jobs.ts';
import { registerContainerDelete } from './container-delete.ts';
import { registerContainerPower } from './container-power.ts';
import { registerContainerExec } from './container-exec.ts';
import { ContainerOperations } from './container-operations.ts';
import { DeleteRequests } from './delete-request.ts';
import { VolumesRepository } from '../volumes/volumes-repository.ts';
import { VolumeWaiter } from '../volumes/volume-waiter.ts';
import { ImageVolumes } from '../volumes/image-volumes.ts';
import { KeptVolumes } from '../volumes/kept-volumes.ts';
import { KeptVolumesRepository } from '../volumes/kept-volumes-repository.ts';

/** Containers, their services, collaborators, image metadata, cross-site DNS and resource requests. */
export function createContainerServices(
  ctx: ManagerContext,
  fleet: FleetServices,
  core: { settings: SettingsService; users: UsersRepository; notices: Notices; audit: AuditLog },
) {
  const { db, config, secrets } = ctx;
  const domains = new ExternalDomainsRepository(db, secrets);
  const dnsClient = new CloudflareClient(config.containers.dnsProviderApiUrl, config.containers.dnsTimeoutMs);
  const dns = new CrossSiteDns(domains, dnsClient);
  const repo = new ContainersRepository(db);
  const servicesRepo = new ServicesRepository(db, config.containers.transportPorts);
  const resourcesRepo = new ResourceRequestsRepository(db);
  const imageMetadata = new ImageMetadataService(config.containers, core.settings, ctx.log);
  const volumes = new VolumesRepository(db);
  const keptVolumes = new KeptVolumes(new KeptVolumesRepository(db), fleet.sites, core.audit);
  const deps: ContainerDeps = {
    db,
    repo,
    services: servicesRepo,
    sites: fleet.sites,
    nodes: fleet.nodes,
    settings: core.settings,
    users: core.users,
    jobs: fleet.jobs.repo,
    providers: fleet.providers,
    domains,
    dns,
    httpNames: new HttpNameGuard(domains, dnsClient),
    images: imageMetadata,
    keptVolumes,
    notices: core.notices,
    audit: core.audit,
    log: ctx.log,
  };
  const containers = new ContainersService(deps);
  registerContainerDelete(fleet.jobHandlers, deps, containers.status);
  registerContainerPower(fleet.jobHandlers, deps, containers.status);
  registerContainerExec(fleet.jobHandlers, deps);
  registerContainerJobs(fleet.jobHandlers, {
    db,
    containers: repo,
    services: servicesRepo,
    nodes: fleet.nodes,
    sites: fleet.sites,
    providers: fleet.providers,
    resources: resourcesRepo,
    dns,
    notices: new FailureNotices(new NotificationsRepository(db)),
    imageVolumes: new ImageVolumes(imageMetadata, volumes, fleet.providers),
    volumes: new VolumeWaiter(volumes, ctx.configChanges, {
      storageRoot: config.containers.volumeStorageRoot,
      waitMs: config.containers.volumeWaitMs,
      pollMs: config.containers.volumePollMs,
    }),
  });
  return {
    containers,
    keptVolumes,
    containerDeletes: new DeleteRequests(containers, fleet.jobs.repo, fleet.jobEvents, core.audit),
    containerUpdates: new ContainerUpdates(deps, containers),
    containerHistory: new ContainerHistory(deps, containers),
    containerOperations: new ContainerOperations(deps, containers),
    containerLogs: new ContainerLogs(containers, fleet.nodes, fleet.providers, ctx.log, {
      linesMax: config.fleet.logLinesMax,
      // Reading a whole log may take longer than one status call.
      readTimeoutMs: config.fleet.nodeTimeoutMs * 6,
    }),
    logFollows: new LogFollows({
      perUser: config.fleet.logFollowsPerUser,
      total: config.fleet.logFollowsMax,
      keepAliveMs: config.fleet.sseKeepAliveMs,
    }),
    collaborators: new CollaboratorsService(db, repo, containers, core.users, core.notices, core.audit),
    imageMetadata,
    resourceRequests: new ResourceRequestsService(
      resourcesRepo,
      fleet.sites,
      repo,
      fleet.jobs.repo,
      core.users,
      core.audit,
    ),
  };
}
