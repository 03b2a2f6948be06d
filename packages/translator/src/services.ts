import type { TranslatorContext } from './context.ts';
import { ProjectsService } from './projects/projects-service.ts';
import { PhrasesService } from './phrases/phrases-service.ts';
import { TranslationsService } from './translations/translations-service.ts';
import { PromptsService } from './ai/prompts-service.ts';
import { AiJobsService } from './ai/jobs-service.ts';
import { AnalyticsService } from './analytics/analytics-service.ts';
import { BackupsService } from './backups/backups-service.ts';

/** Every domain service of the translator, wired together. */
export function createServices(ctx: TranslatorContext) {
  const translations = new TranslationsService(ctx);
  const changed = (projectId: number) => translations.cache.invalidate(projectId);
  const projects = new ProjectsService(ctx, changed);
  const phrases = new PhrasesService(ctx, changed);
  const prompts = new PromptsService(ctx);
  const aiJobs = new AiJobsService(ctx, projects, phrases, prompts);
  const analytics = new AnalyticsService(ctx);
  const backups = new BackupsService(ctx);
  return { projects, phrases, translations, prompts, aiJobs, analytics, backups, changed };
}

export type TranslatorServices = ReturnType<typeof createServices>;
