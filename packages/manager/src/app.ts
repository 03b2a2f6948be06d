import cookie from '@fastify/cookie';
import websocket from '@fastify/websocket';
import {
  createHttpServer,
  probeRoutes,
  registerApiDocs,
  registerOpenApi,
  SecretBox,
  type Database,
} from '@app/server-kit';
import type { ManagerConfig } from './config.ts';
import type { ManagerDB } from './db/schema.ts';
import { openManagerDatabase } from './db/store.ts';
import type { Api } from './common/api.ts';
import { installRequestAuth } from './auth/request-auth.ts';
import { createServices, type Services } from './services.ts';
import { metaRoutes } from './routes/meta.ts';
import { authRoutes } from './routes/auth.ts';
import { userRoutes } from './routes/users.ts';
import { groupRoutes } from './routes/groups.ts';
import { apiKeyRoutes } from './routes/apikeys.ts';
import { settingsRoutes } from './routes/settings.ts';
import { siteRoutes } from './routes/sites.ts';
import { nodeRoutes } from './routes/nodes.ts';
import { jobRoutes } from './routes/jobs.ts';
import { containerRoutes } from './routes/containers.ts';
import { containerOperationRoutes } from './routes/container-operations.ts';
import { containerLogRoutes } from './routes/container-logs.ts';
import { resourceRequestRoutes } from './routes/resource-requests.ts';
import { siteAgentRoutes } from './routes/site-agents.ts';
import { agentTokenRoutes } from './routes/agent-tokens.ts';
import { keptVolumeRoutes } from './routes/kept-volumes.ts';
import { notificationRoutes } from './routes/notifications.ts';
import { externalDomainRoutes } from './routes/external-domains.ts';
import { alertRuleRoutes } from './routes/alert-rules.ts';
import { terminalRoutes } from './routes/terminal.ts';
import { ConfigChanges } from './site-config/config-changes.ts';
import type { ProcessRole } from './fleet.ts';
import { webClient } from './web/static.ts';
import { ManagerMetrics } from './observability/metrics.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { routeErrors, routeSecurity, SECURITY_SCHEMES } from './auth/route-errors.ts';
import { installRequestAudit } from './audit/request-audit.ts';
import { auditRoutes } from './routes/audit.ts';
import { metricsHistoryRoutes } from './routes/metrics-history.ts';

export const API_PREFIX = '/api/v1';
export const API_VERSION = '1.1.0';

export interface ManagerApp {
  app: Api;
  services: Services;
  database: Database<ManagerDB>;
  /** Stops the HTTP server (finishing in-flight requests), then closes the database. */
  close(): Promise<void>;
}

export interface BuildOptions {
  /** PostgreSQL schema (tests give each file its own). */
  schema?: string;
  /** Where log lines go (default standard output). */
  logStream?: { write(line: string): unknown };
  /** `api` serves HTTP only, `worker` runs jobs only (do not listen), `all` (default) both. */
  role?: ProcessRole;
  /** false: requests leave no audit entries (the benches measure the audit log's cost against it). */
  audit?: boolean;
  /** The web client's build folder (default: packages/manager-web/dist). */
  webRoot?: string;
}

/**
 * Password-reset and invitation tokens never reach the request log: in API paths
 * (`/auth/password-reset/<token>`, `/auth/register/invite/<token>`) and in the web client's links
 * (`/reset-password/<token>`, `/register?invite=<token>`).
 */
const redactUrl = (url: string) =>
  url
    .replace(/(\/(?:password-reset|reset-password|invite)\/)(?!request(?:[/?#]|$))[^/?#]+/, '$1[redacted]')
    .replace(/([?&](?:invite|inviteToken|token)=)[^&#]*/gi, '$1[redacted]');

export async function buildManager(config: ManagerConfig, options: BuildOptions = {}): Promise<ManagerApp> {
  const database = await openManagerDatabase(config, options.schema);

  const metrics = new ManagerMetrics();
  const app = createHttpServer({
    logLevel: config.logLevel,
    trustProxy: config.trustProxy,
    requestLogSample: config.requestLogSample,
    redactUrl,
    metrics: metrics.http,
    rateLimit: config.rateLimit,
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  const configChanges = new ConfigChanges();
  const services = createServices({
    metrics,
    db: database.db.withPlugin(configChanges.plugin()),
    configChanges,
    dialect: database.dialect,
    read: database.read,
    config,
    secrets: new SecretBox(config.secretKey),
    log: app.log,
    databaseSchema: options.schema,
  });

  // No parsing hook: the request hook of the API reads the session cookie itself (request-auth.ts).
  await app.register(cookie, { hook: false });
  // Browser terminals; one frame holds at most what a paste or a burst of output sends at once.
  await app.register(websocket, { options: { maxPayload: 1024 * 1024 } });
  await registerOpenApi(app, {
    title: 'Container Manager API',
    version: API_VERSION,
    description: 'Sites, nodes, containers and their services, jobs, users and settings.',
    prefix: API_PREFIX,
    errorsOf: routeErrors(API_PREFIX),
    securitySchemes: SECURITY_SCHEMES,
    securityOf: routeSecurity(API_PREFIX),
  });
  probeRoutes(app, API_PREFIX, database.db);
  await registerApiDocs(app, API_PREFIX, {
    sessionUrl: `${API_PREFIX}/csrf-token`,
    csrfField: 'data.csrfToken',
    keyHeaders: ['authorization'],
  });
  await app.register(
    async (api: Api) => {
      if (options.audit !== false) installRequestAudit(api, services.audit, API_PREFIX);
      installRequestAuth(api, {
        sessions: services.sessions,
        preSessions: services.preSessions,
        apiKeys: services.apiKeys,
        users: services.users.repo,
        secureCookies: config.production,
        metricsToken: config.metricsToken,
      });
      for (const routes of [
        metaRoutes,
        metricsRoutes,
        authRoutes,
        userRoutes,
        groupRoutes,
        apiKeyRoutes,
        settingsRoutes,
        siteRoutes,
        nodeRoutes,
        jobRoutes,
        containerRoutes,
        containerOperationRoutes,
        containerLogRoutes,
        resourceRequestRoutes,
        siteAgentRoutes,
        agentTokenRoutes,
        keptVolumeRoutes,
        notificationRoutes,
        externalDomainRoutes,
        terminalRoutes,
        auditRoutes,
        metricsHistoryRoutes,
        alertRuleRoutes,
      ]) {
        await api.register(async (scope: Api) => routes(scope, services));
      }
    },
    { prefix: API_PREFIX },
  );
  await webClient(app, options.webRoot ? { root: options.webRoot } : {});

  metrics.watch({
    activeJobs: () => services.jobs.repo.countActive(),
    agents: () => services.agents.list(),
    sseConnections: () => services.jobStreams.size,
    usage: () => services.metricsHistory.latest(),
  });
  await services.startFleet(options.role ?? 'all');
  const sweep = setInterval(() => {
    void services.sessions.purgeExpired().catch(() => undefined);
    void services.quotas.purgeExpired().catch(() => undefined);
    void services.audit
      .prune()
      .catch((error: unknown) => app.log.error({ err: error }, 'audit log prune failed'));
  }, 3600_000);
  sweep.unref();

  return {
    app,
    services,
    database,
    async close() {
      clearInterval(sweep);
      await services.stopFleet();
      // A DELETE waiting for its job would hold the HTTP server open: it answers 503 now.
      services.containerDeletes.stopWaiting();
      await app.close();
      await services.background.drain();
      await services.alertDelivery.close();
      await database.close();
    },
  };
}
