import type { TranslatorContext } from './context.ts';
import { ProjectChanges } from './changes.ts';
import { ProjectsService } from './projects/projects-service.ts';
import { PhrasesService } from './phrases/phrases-service.ts';
import { TranslationsService } from './translations/translations-service.ts';
import { PromptsService } from './ai/prompts-service.ts';
import { AiJobsService } from './ai/jobs-service.ts';
import { AnalyticsService } from './analytics/analytics-service.ts';
import { BackupsService } from './backups/backups-service.ts';

/**
 * Every domain service of the translator, wired together. A service that caches subscribes to `changes`;
 * a write that can change what is delivered announces it there (to every process).
 */
export function createServices(ctx: TranslatorContext) {
  const changes = new ProjectChanges(ctx.db, ctx.dialect, ctx.config.databaseSchema, ctx.log);
  const changed = (projectId: number) => changes.announce('data', projectId);
  const translations = new TranslationsService(ctx, changes);
  const projects = new ProjectsService(ctx, changes);
  const phrases = new PhrasesService(ctx, changed);
  const prompts = new PromptsService(ctx);
  const aiJobs = new AiJobsService(ctx, projects, phrases, prompts);
  const analytics = new AnalyticsService(ctx);
  const backups = new BackupsService(ctx);
  return { projects, phrases, translations, prompts, aiJobs, analytics, backups, changes, changed };
}

export type TranslatorServices = ReturnType<typeof createServices>;
