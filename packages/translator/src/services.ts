import type { TranslatorContext } from './context.ts';
import { ProjectsService } from './projects/projects-service.ts';
import { PhrasesService } from './phrases/phrases-service.ts';
import { TranslationsService } from './translations/translations-service.ts';

/** Every domain service of the translator, wired together. */
export function createServices(ctx: TranslatorContext) {
  const translations = new TranslationsService(ctx);
  const changed = (projectId: number) => translations.cache.invalidate(projectId);
  const projects = new ProjectsService(ctx, changed);
  const phrases = new PhrasesService(ctx, changed);
  return { projects, phrases, translations };
}

export type TranslatorServices = ReturnType<typeof createServices>;
