import type { ManagerContext } from '../context.ts';
import { ExternalDomainsService } from '../external-domains/external-domains-service.ts';
import { NotificationsService } from '../notifications/notifications-service.ts';
import { AgentsService } from './agents-service.ts';
import type { ConfigChanges } from './config-changes.ts';
import { SnapshotCache } from './snapshot-cache.ts';

/** Services of the site-agent side: check-ins and snapshots, notifications, external domains. */
export function createSiteConfigServices(ctx: ManagerContext, changes: ConfigChanges) {
  const snapshots = new SnapshotCache(ctx.db, changes);
  return {
    snapshots,
    agents: new AgentsService(ctx.db, snapshots),
    notifications: new NotificationsService(ctx.db),
    externalDomains: new ExternalDomainsService(ctx.db, ctx.secrets),
  };
}
