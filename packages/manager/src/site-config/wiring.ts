import { sql } from 'kysely';
import type { ManagerContext } from '../context.ts';
import { ExternalDomainsService } from '../external-domains/external-domains-service.ts';
import { NotificationsService } from '../notifications/notifications-service.ts';
import { AgentsService } from './agents-service.ts';
import type { PgListener } from '../common/pg-listener.ts';
import type { ConfigChanges } from './config-changes.ts';
import { SnapshotCache } from './snapshot-cache.ts';

/** Services of the site-agent side: check-ins and snapshots, notifications, external domains. */
export function createSiteConfigServices(
  ctx: ManagerContext,
  changes: ConfigChanges,
  listener: PgListener | undefined,
) {
  if (listener) {
    // PostgreSQL: a change written by another process (a worker, another API process) reaches
    // this process's snapshot cache and volume waits at once.
    const channel = listener.channelName('config_changes');
    changes.share({
      publish: async (payload) => {
        await sql`select pg_notify(${channel}, ${payload})`.execute(ctx.db);
      },
      subscribe: (onMessage, onGap) => listener.on(channel, { onMessage, onGap }),
    });
  }
  const snapshots = new SnapshotCache(ctx.db, changes);
  return {
    snapshots,
    agents: new AgentsService(ctx.db, snapshots),
    notifications: new NotificationsService(ctx.db),
    externalDomains: new ExternalDomainsService(ctx.db, ctx.secrets),
  };
}
