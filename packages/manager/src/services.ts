import type { ManagerContext } from './context.ts';
import { AccountService } from './auth/account-service.ts';
import { ApiKeyService } from './auth/api-keys.ts';
import { ApiKeysRepository } from './auth/api-keys-repository.ts';
import { OidcService } from './auth/oidc.ts';
import { SessionStore } from './auth/sessions.ts';
import { SessionsRepository } from './auth/sessions-repository.ts';
import { PreSessions } from './auth/pre-sessions.ts';
import { PrincipalCache } from './auth/principal-cache.ts';
import { TokenStore } from './auth/tokens.ts';
import { TokensRepository } from './auth/tokens-repository.ts';
import { QuotaRepository } from './auth/quota-repository.ts';
import { Quotas } from './auth/quotas.ts';
import { BackgroundTasks } from './common/background.ts';
import { Mailer } from './mail/mailer.ts';
import { SettingsService } from './settings/settings-service.ts';
import { SettingsRepository } from './settings/settings-repository.ts';
import { GroupsService } from './users/groups-service.ts';
import { GroupsRepository } from './users/groups-repository.ts';
import { UsersService } from './users/users-service.ts';
import { UsersRepository } from './users/users-repository.ts';
import { LastAdminGuard } from './users/last-admin-guard.ts';
import { Notices } from './notifications/notices.ts';
import { NotificationsRepository } from './notifications/notifications-repository.ts';
import { createFleetServices } from './fleet.ts';
import { createContainerServices } from './containers/wiring.ts';
import { ContainersRepository } from './containers/containers-repository.ts';
import { createSiteConfigServices } from './site-config/wiring.ts';
import { onSchemaNotification } from './db/schema-notifications.ts';
import { joinWirings } from './common/wirings.ts';
import { TerminalSessions } from './terminal/terminal-sessions.ts';
import { AuditLog } from './audit/audit-log.ts';
import { AuditRepository } from './audit/audit-repository.ts';
import { AlertRulesRepository } from './alerts/alert-rules-repository.ts';
import { AlertRulesService } from './alerts/alert-rules-service.ts';
import { AlertDelivery } from './alerts/alert-delivery.ts';
import { AlertEvaluator } from './alerts/alert-evaluator.ts';

/** Every domain service of the manager, wired once per process. */
export function createServices(ctx: ManagerContext) {
  const { db, dialect, read, config, secrets, log } = ctx;
  const audit: AuditLog = new AuditLog(
    db,
    new AuditRepository(db),
    async (): Promise<number> => (await settings.get()).auditRetentionDays,
  );
  const settings: SettingsService = new SettingsService(db, new SettingsRepository(db), secrets, audit);
  const sessions = new SessionStore(new SessionsRepository(db));
  const principals = new PrincipalCache(ctx.metrics.cache('api_keys'));
  const groups = new GroupsRepository(db);
  const usersRepo = new UsersRepository(db);
  const adminGuard = new LastAdminGuard(db, dialect, usersRepo, audit);
  const notices = new Notices(new NotificationsRepository(db), usersRepo);
  const users = new UsersService(
    db,
    dialect,
    usersRepo,
    groups,
    sessions,
    principals,
    new ContainersRepository(db),
    adminGuard,
    notices,
    audit,
  );
  const mailer = new Mailer(settings, log);
  const tokens = new TokenStore(new TokensRepository(db));
  const background = new BackgroundTasks(log);
  const apiKeys = new ApiKeyService(new ApiKeysRepository(db, read), principals, audit);
  const alertRules = new AlertRulesRepository(db);
  const alertDelivery = new AlertDelivery(
    mailer,
    usersRepo,
    secrets,
    background,
    log,
    notices,
    config.fleet.alertWebhookAllowlist,
  );
  const alertEvaluator = new AlertEvaluator(db, alertRules, notices, alertDelivery, log);
  const fleet = createFleetServices(ctx, audit, (at) => alertEvaluator.evaluate(at));
  const containers = createContainerServices(ctx, fleet, { settings, users: users.repo, notices, audit });
  const siteConfig = createSiteConfigServices(ctx, ctx.configChanges, fleet.pgListener, fleet.sites, {
    notices,
    mailer,
    background,
    audit,
  });
  if (fleet.pgListener) {
    // PostgreSQL: a key, token, user or group changed in any process (migration 022's triggers) is
    // forgotten here as soon as it commits, not when the cached entry runs out.
    onSchemaNotification(db, fleet.pgListener, 'principal_changes', () => {
      principals.clear();
      siteConfig.agentTokens.forgetAll();
    });
  }
  return joinWirings(
    {
      ctx,
      audit,
      sessions,
      preSessions: new PreSessions(config.secretKey),
      users,
      settings,
      mailer,
      tokens,
      background,
      alertRules: new AlertRulesService(alertRules, secrets, audit, alertDelivery),
      alertDelivery,
      alertEvaluator,
      quotas: new Quotas(new QuotaRepository(db), config.quotas),
      apiKeys,
      /** Callers behind recently used API keys; emptied on every change of a key, user or group. */
      principals,
      terminals: new TerminalSessions(principals, config.containers.terminal.maxPerUser, audit, log),
      groups: new GroupsService(groups, principals, adminGuard, audit),
      accounts: new AccountService(
        db,
        users,
        tokens,
        sessions,
        apiKeys,
        mailer,
        config.publicUrl,
        background,
        audit,
      ),
      oidc: config.oidc ? new OidcService(config.oidc, config.publicUrl, db, users, settings) : undefined,
    },
    fleet,
    containers,
    siteConfig,
  );
}

export type Services = ReturnType<typeof createServices>;
