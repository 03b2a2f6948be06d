import type { TranslatorContext } from './context.ts';
import { ProjectChanges } from './changes.ts';
import { ProjectsService } from './projects/projects-service.ts';
import { ProjectsRepository } from './projects/projects-repository.ts';
import { PhrasesService } from './phrases/phrases-service.ts';
import { PhrasesRepository } from './phrases/phrases-repository.ts';
import { TranslationsService } from './translations/translations-service.ts';
import { TranslationsRepository } from './translations/translations-repository.ts';
import { TranslationHistoryService } from './translations/history-service.ts';
import { PromptsService } from './ai/prompts-service.ts';
import { PromptsRepository } from './ai/prompts-repository.ts';
import { AiJobsService } from './ai/jobs-service.ts';
import { createAiEngine } from './ai/ai-engine.ts';
import { AnalyticsService } from './analytics/analytics-service.ts';
import { AnalyticsRepository } from './analytics/analytics-repository.ts';
import { SeoService } from './seo/seo-service.ts';
import { OwnAddress } from './http/own-address.ts';
import { BackupsService } from './backups/backups-service.ts';
import { FilesService } from './files/files-service.ts';
import { GlossaryService } from './glossary/glossary-service.ts';
import { GlossaryRepository } from './glossary/glossary-repository.ts';
import { TranslationMemoryService } from './memory/memory-service.ts';
import { MemoryRepository } from './memory/memory-repository.ts';
import { AccountsService } from './accounts/accounts-service.ts';
import { AccountsRepository } from './accounts/accounts-repository.ts';
import { SessionStore } from './accounts/sessions.ts';
import { SsoService } from './accounts/sso.ts';
import { ScreenshotsRepository } from './screenshots/screenshots-repository.ts';
import { ScreenshotsService } from './screenshots/screenshots-service.ts';
import { ScreenshotWorker } from './screenshots/screenshot-worker.ts';
import { ChromiumCapturer } from './screenshots/capturer.ts';
import { readScreenshotConfig, type ScreenshotConfig } from './screenshots/screenshots-config.ts';

/**
 * Every domain service of the translator, wired together. A service that caches subscribes to `changes`;
 * a write that can change what is delivered announces it there (to every process).
 */
export function createServices(
  ctx: TranslatorContext,
  screenshotConfig: ScreenshotConfig = readScreenshotConfig(),
) {
  const changes = new ProjectChanges(ctx.db, ctx.dialect, ctx.config.databaseSchema, ctx.log);
  const changed = (projectId: number) => changes.announce('data', projectId);
  const projectsRepository = new ProjectsRepository(ctx.db);
  const translationsRepository = new TranslationsRepository(ctx.db);
  const glossary = new GlossaryService(new GlossaryRepository(ctx.db));
  const translations = new TranslationsService(ctx, translationsRepository, changes, glossary);
  const history = new TranslationHistoryService(translationsRepository, changes);
  const files = new FilesService(translationsRepository, changes);
  const projects = new ProjectsService(ctx, projectsRepository, changes);
  const screenshotsRepository = new ScreenshotsRepository(ctx.db);
  const capturer = new ChromiumCapturer(screenshotConfig);
  const screenshotWorker = new ScreenshotWorker(
    screenshotConfig,
    screenshotsRepository,
    capturer,
    {
      enabled: (id) =>
        projects.settings(id).then(
          (settings) => settings.screenshotsEnabled,
          () => false,
        ),
      allowedOrigins: (id) =>
        projects.settings(id).then(
          (settings) => settings.allowedOrigins,
          () => [],
        ),
      ids: async () => (await projects.list()).map((project) => project.id),
    },
    ctx.log,
  );
  const screenshots = new ScreenshotsService(screenshotsRepository, capturer, screenshotWorker, projects);
  const phrases = new PhrasesService(new PhrasesRepository(ctx.db), changed, (projectId) => {
    screenshots
      .registered(projectId)
      .catch((error: unknown) => ctx.log.warn({ err: error }, 'screenshots: could not plan a run'));
  });
  const prompts = new PromptsService(new PromptsRepository(ctx.db));
  const memory = new TranslationMemoryService(new MemoryRepository(ctx.db), projects, changes);
  const aiEngine = createAiEngine(ctx, {
    projects,
    prompts,
    glossary,
    memory,
    screenshots,
    onTranslated: changed,
  });
  const aiJobs = new AiJobsService(ctx, aiEngine.jobs, projects, phrases, prompts);
  const analytics = new AnalyticsService(new AnalyticsRepository(ctx.db), glossary);
  const ownAddress = new OwnAddress({ publicUrl: ctx.config.accounts.publicUrl, host: ctx.config.host });
  const seo = new SeoService(
    ctx,
    { projects, translations, phrases, analytics },
    changes,
    screenshotConfig.chromiumPath,
  );
  const backups = new BackupsService(ctx, projectsRepository, changes);
  const accountsRepository = new AccountsRepository(ctx.db);
  const accounts = new AccountsService(ctx, accountsRepository, new SessionStore(accountsRepository));
  const { oidc } = ctx.config.accounts;
  const sso = oidc && new SsoService({ ...ctx.config.accounts, oidc }, ctx.config.secretKey);
  return {
    accounts,
    sso,
    projects,
    phrases,
    translations,
    history,
    files,
    glossary,
    memory,
    prompts,
    aiJobs,
    aiEngine,
    analytics,
    seo,
    ownAddress,
    backups,
    screenshots,
    screenshotWorker,
    screenshotConfig,
    changes,
    changed,
  };
}

export type TranslatorServices = ReturnType<typeof createServices>;
