import { existsSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyCookie from '@fastify/cookie';
import {
  createHttpServer,
  DASHBOARD_HEADERS,
  installRateLimit,
  PgListener,
  probeRoutes,
  registerApiDocs,
  registerOpenApi,
  SecretBox,
  type Database,
  type HttpServer,
} from '@app/server-kit';
import type { TranslatorDB } from './db/schema.ts';
import type { TranslatorConfig } from './config.ts';
import type { TranslatorContext } from './context.ts';
import { openStore } from './db/store.ts';
import { createServices, type TranslatorServices } from './services.ts';
import type { Project } from './projects/projects-service.ts';
import { API_KEY_HEADER, installProjectAuth } from './http/auth.ts';
import { installCors } from './http/cors.ts';
import { PageKeyLimiter } from './http/page-limits.ts';
import { projectRoutes } from './routes/project.ts';
import { textnodeRoutes } from './routes/textnodes.ts';
import { translationRoutes } from './routes/translations.ts';
import { fileRoutes } from './routes/files.ts';
import { glossaryRoutes } from './routes/glossary.ts';
import { memoryRoutes } from './routes/memory.ts';
import { translationHistoryRoutes } from './routes/translation-history.ts';
import { aiRoutes } from './routes/ai-jobs.ts';
import { analyticsRoutes } from './routes/analytics.ts';
import { backupRoutes } from './routes/backups.ts';
import { seoRoutes } from './routes/seo.ts';
import { pageClientRoutes } from './routes/page-client.ts';
import { TranslatorMetrics } from './observability/metrics.ts';
import { routeErrors, routeSecurity, SECURITY_SCHEMES } from './http/route-errors.ts';
import { metricsRoutes } from './routes/metrics.ts';
import { accountRoutes } from './routes/accounts.ts';
import { memberRoutes } from './routes/members.ts';
import { installAccessCheck } from './http/session-auth.ts';
import { screenshotRoutes } from './routes/screenshots.ts';
import type { ScreenshotConfig } from './screenshots/screenshots-config.ts';

export interface TranslatorOptions {
  /**
   * Folder served at `/` (the dashboard build; `index.html` answers unknown non-API GETs so client-side
   * routes work). Defaults to `config.staticDir`.
   */
  staticDir?: string | undefined;
  /** Adds routes outside `/api` (e.g. the page client's `/client.js`), after the API is registered. */
  extend?: (app: FastifyInstance) => void | Promise<void>;
  /** Run the AI job worker and the backup schedule in this process (default true). */
  workers?: boolean;
  /** How screenshots are taken (default: from the environment, see screenshots-config.ts). */
  screenshots?: ScreenshotConfig | undefined;
}

export interface Translator {
  app: HttpServer;
  ctx: TranslatorContext;
  services: TranslatorServices;
  /** The default project, and whether this start created it (main prints its key then). */
  defaultProject: { created: boolean; project: Project };
  /** Listens on config.host:config.port; resolves to the URL. */
  listen(): Promise<string>;
  /** Stops the HTTP server (finishing in-flight requests), then the workers, then the database. */
  close(): Promise<void>;
}

export async function buildTranslator(
  config: TranslatorConfig,
  options: TranslatorOptions = {},
): Promise<Translator> {
  const database = await openStore(config);
  const metrics = new TranslatorMetrics();
  const app = createHttpServer({
    logLevel: config.logLevel,
    trustProxy: config.trustProxy,
    requestLogSample: config.requestLogSample,
    bodyLimit: config.bodyLimit,
    metrics: metrics.http,
  });
  const ctx = createContext(config, database, app.log, metrics);
  const services = createServices(ctx, options.screenshots);
  ctx.metrics.watchQueue(() => services.aiJobs.countActive());
  const listener = await listenForChanges(config, database, services, app.log);
  const defaultProject = await services.projects.ensureDefault();

  const pageLimiter = new PageKeyLimiter(config.pageKey);
  await app.register(fastifyCookie);
  installCors(app, services.projects);
  installRateLimit(app, config.rateLimit);
  await registerOpenApi(app, {
    title: 'Translator API',
    version: config.version,
    prefix: '/api',
    description:
      'Phrases, translations, AI jobs, analytics, export and backups. Authenticate with X-API-Key: the ' +
      'project’s full key, or its publishable page key (tpk_…) for the page client’s calls (POST /textnodes, ' +
      'GET /translations, /languages, /project/crawler-config) from the project’s allowed origins.',
    errorsOf: routeErrors,
    securitySchemes: SECURITY_SCHEMES,
    securityOf: routeSecurity,
  });
  probeRoutes(app, '/api', database.db);
  metricsRoutes(app, ctx.metrics, config.metricsToken);
  await registerApiDocs(app, '/api', {
    sessionUrl: '/api/auth/session',
    csrfField: 'csrfToken',
    keyHeaders: [API_KEY_HEADER],
    // The project the dashboard last worked on (its localStorage), as the dashboard itself picks it.
    project: { header: 'X-Project-Id', rememberedIn: 'translator.project' },
  });

  await app.register(async (api) => {
    installProjectAuth(api, services.projects, services.accounts, pageLimiter);
    installAccessCheck(api);
    accountRoutes(api, services, config);
    memberRoutes(api, services);
    projectRoutes(api, services, config);
    textnodeRoutes(api, services, config);
    translationRoutes(api, services);
    translationHistoryRoutes(api, services);
    fileRoutes(api, services);
    glossaryRoutes(api, services);
    memoryRoutes(api, services);
    aiRoutes(api, services);
    analyticsRoutes(api, services);
    backupRoutes(api, services);
    screenshotRoutes(api, services);
  });

  await pageClientRoutes(app);
  seoRoutes(app, services);
  const staticDir = options.staticDir ?? config.staticDir;
  if (staticDir) await serveStatic(app, resolve(staticDir));
  if (options.extend) await options.extend(app);

  const workers = options.workers ?? true;
  const { worker: aiWorker, events: aiEvents } = services.aiEngine;
  aiEvents.start();
  if (workers) {
    services.aiJobs.onChange = () => aiWorker.wake();
    aiWorker.start();
    services.screenshotWorker.start();
  }
  const stopBackups = workers ? scheduleBackups(ctx, services) : () => {};
  const stopPurge = workers ? scheduleSessionPurge(ctx, services) : () => {};

  let closed = false;
  return {
    app,
    ctx,
    services,
    defaultProject,
    async listen() {
      return app.listen({ port: config.port, host: config.host });
    },
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      pageLimiter.close();
      stopBackups();
      stopPurge();
      await aiWorker.stop(0);
      await services.screenshotWorker.stop();
      aiEvents.close();
      await services.seo.close();
      await listener?.close();
      await database.close();
    },
  };
}

export function createContext(
  config: TranslatorConfig,
  database: Database<TranslatorDB>,
  log: FastifyBaseLogger,
  metrics = new TranslatorMetrics(),
): TranslatorContext {
  return {
    db: database.db,
    dialect: database.dialect,
    config,
    secrets: new SecretBox(config.secretKey),
    log,
    metrics,
  };
}

/** On PostgreSQL, hears the changes other processes announce (see ProjectChanges). */
async function listenForChanges(
  config: TranslatorConfig,
  database: Database<TranslatorDB>,
  services: TranslatorServices,
  log: FastifyBaseLogger,
): Promise<PgListener | undefined> {
  if (database.dialect !== 'postgres') return undefined;
  const listener = new PgListener({ databaseUrl: config.databaseUrl, schema: config.databaseSchema, log });
  const { changes } = services;
  listener.on(changes.channel, {
    onMessage: (payload) => changes.heard(payload),
    onGap: () => changes.gap(),
  });
  await listener.start();
  return listener;
}

/** Deletes the expired dashboard sessions every hour. */
function scheduleSessionPurge(ctx: TranslatorContext, services: TranslatorServices): () => void {
  const timer = setInterval(() => {
    services.accounts.sessions
      .purgeExpired()
      .catch((error: unknown) => ctx.log.warn({ err: error }, 'could not purge expired sessions'));
  }, 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}

/** Checks hourly (and a minute after start) for projects whose automatic backup is due. */
function scheduleBackups(ctx: TranslatorContext, services: TranslatorServices): () => void {
  const hours = ctx.config.backup.intervalHours;
  if (hours <= 0) return () => {};
  let busy = false;
  const check = () => {
    if (busy) return;
    busy = true;
    services.backups
      .runDue()
      .catch((error: unknown) => ctx.log.error({ err: error }, 'automatic backup failed'))
      .finally(() => (busy = false));
  };
  const first = setTimeout(check, 60_000);
  const timer = setInterval(check, Math.min(hours, 1) * 3_600_000);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}

/**
 * The dashboard: files under `root`, and its index.html for any other GET outside `/api`, so client-side
 * routes load the app. Paths are resolved by @fastify/send, which refuses to leave `root`.
 */
async function serveStatic(app: HttpServer, root: string) {
  // The build writes .br and .gz beside each file (web-kit/build/precompress.mjs).
  await app.register(fastifyStatic, { root, serve: false, preCompressed: true });
  app.get('/*', { schema: { hide: true }, config: { auth: 'none' } }, async (request, reply) => {
    let path: string;
    try {
      path = decodeURIComponent(request.url.split('?')[0]!);
    } catch {
      return reply.callNotFound();
    }
    if (path.startsWith('/api/') || path === '/api') return reply.callNotFound();
    reply.headers(DASHBOARD_HEADERS);
    const file = resolve(root, `.${path}`);
    const inside = file === root || file.startsWith(`${root}${sep}`);
    if (inside && path !== '/' && existsSync(file) && statSync(file).isFile())
      return reply.sendFile(path.slice(1));
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
