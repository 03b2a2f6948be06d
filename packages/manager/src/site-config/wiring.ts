import type { ManagerContext } from '../context.ts';
import { ExternalDomainsService } from '../external-domains/external-domains-service.ts';
import { ExternalDomainsRepository } from '../external-domains/external-domains-repository.ts';
import { NotificationsService } from '../notifications/notifications-service.ts';
import { NotificationsRepository } from '../notifications/notifications-repository.ts';
import { ContainersRepository } from '../containers/containers-repository.ts';
import { UsersRepository } from '../users/users-repository.ts';
import type { BackgroundTasks } from '../common/background.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Notices } from '../notifications/notices.ts';
import { CertificatesRepository } from '../certificates/certificates-repository.ts';
import { CertificatesService } from '../certificates/certificates-service.ts';
import { AcmeDnsChallenges } from '../certificates/acme-dns-challenges.ts';
import { CloudflareClient } from '../dns/cloudflare-client.ts';
import { AgentsService } from './agents-service.ts';
import { AgentsRepository } from './agents-repository.ts';
import { AgentTokensRepository } from './agent-tokens-repository.ts';
import { AgentTokenService } from './agent-tokens.ts';
import type { SitesService } from '../sites/sites-service.ts';
import type { PgListener } from '@app/server-kit';
import type { ConfigChanges } from './config-changes.ts';
import { SnapshotCache } from './snapshot-cache.ts';
import { SnapshotRepository } from './snapshot-repository.ts';
import type { AuditLog } from '../audit/audit-log.ts';
import { onSchemaNotification } from '../db/schema-notifications.ts';

/**
 * Services of the site-agent side: check-ins and snapshots, agent tokens, notifications, external
 * domains and their certificates.
 */
export function createSiteConfigServices(
  ctx: ManagerContext,
  changes: ConfigChanges,
  listener: PgListener | undefined,
  sites: SitesService,
  core: { notices: Notices; mailer: Mailer; background: BackgroundTasks; audit: AuditLog },
) {
  if (listener) {
    // PostgreSQL: triggers (migration 006) announce every committed write to a configuration table.
    changes.share({
      subscribe: (onChange) => onSchemaNotification(ctx.db, listener, 'config_changes', onChange),
    });
  }
  const snapshots = new SnapshotCache(
    new SnapshotRepository(ctx.db),
    changes,
    ctx.metrics.cache('site_snapshots'),
  );
  const certificates = new CertificatesService(
    ctx.db,
    new CertificatesRepository(ctx.db),
    core.notices,
    new UsersRepository(ctx.db),
    core.mailer,
    core.background,
  );
  const { dnsProviderApiUrl, dnsTimeoutMs } = ctx.config.containers;
  return {
    snapshots,
    certificates,
    acmeDnsChallenges: new AcmeDnsChallenges(
      new ExternalDomainsRepository(ctx.db, ctx.secrets),
      new CloudflareClient(dnsProviderApiUrl, dnsTimeoutMs),
    ),
    agents: new AgentsService(ctx.db, new AgentsRepository(ctx.db), snapshots, certificates),
    agentTokens: new AgentTokenService(
      new AgentTokensRepository(ctx.db),
      (siteId) => sites.assertExists(siteId),
      core.audit,
    ),
    notifications: new NotificationsService(
      new NotificationsRepository(ctx.db),
      new UsersRepository(ctx.db),
      new ContainersRepository(ctx.db),
      core.audit,
    ),
    externalDomains: new ExternalDomainsService(
      new ExternalDomainsRepository(ctx.db, ctx.secrets),
      sites,
      ctx.secrets,
      core.audit,
    ),
  };
}
