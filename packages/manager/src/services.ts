import type { ManagerContext } from './context.ts';
import { AccountService } from './auth/account-service.ts';
import { ApiKeyService } from './auth/api-keys.ts';
import { OidcService } from './auth/oidc.ts';
import { SessionStore } from './auth/sessions.ts';
import { PreSessions } from './auth/pre-sessions.ts';
import { PrincipalCache } from './auth/principal-cache.ts';
import { TokenStore } from './auth/tokens.ts';
import { QuotaRepository } from './auth/quota-repository.ts';
import { Quotas } from './auth/quotas.ts';
import { BackgroundTasks } from './common/background.ts';
import { Mailer } from './mail/mailer.ts';
import { SettingsService } from './settings/settings-service.ts';
import { GroupsService } from './users/groups-service.ts';
import { UsersService } from './users/users-service.ts';
import { createFleetServices } from './fleet.ts';
import { createContainerServices } from './containers/wiring.ts';
import { ContainersRepository } from './containers/containers-repository.ts';
import { createSiteConfigServices } from './site-config/wiring.ts';

/** Every domain service of the manager, wired once per process. */
export function createServices(ctx: ManagerContext) {
  const { db, dialect, read, config, secrets, log } = ctx;
  const sessions = new SessionStore(db);
  const principals = new PrincipalCache(ctx.metrics.cache('api_keys'));
  const users = new UsersService(db, dialect, sessions, principals, new ContainersRepository(db));
  const settings = new SettingsService(db, secrets);
  const mailer = new Mailer(settings, log);
  const tokens = new TokenStore(db);
  const background = new BackgroundTasks(log);
  const apiKeys = new ApiKeyService(db, read, principals);
  const fleet = createFleetServices(ctx);
  return {
    ctx,
    sessions,
    preSessions: new PreSessions(config.secretKey),
    users,
    settings,
    mailer,
    tokens,
    background,
    quotas: new Quotas(new QuotaRepository(db), config.quotas),
    apiKeys,
    groups: new GroupsService(db, principals),
    accounts: new AccountService(db, users, tokens, sessions, apiKeys, mailer, config.publicUrl, background),
    oidc: config.oidc ? new OidcService(config.oidc, config.publicUrl, db, users, settings) : undefined,
    ...fleet,
    ...createContainerServices(ctx, fleet, { settings, users: users.repo }),
    ...createSiteConfigServices(ctx, ctx.configChanges, fleet.pgListener, fleet.sites),
  };
}

export type Services = ReturnType<typeof createServices>;
