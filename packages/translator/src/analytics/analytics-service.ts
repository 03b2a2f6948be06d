import { notFound } from '@app/server-kit';
import { dayOf } from '../common/time.ts';
import type { StoredSettings } from '../projects/settings.ts';
import type { AnalyticsRepository } from './analytics-repository.ts';
import { QUALITY_CHECKS, qualityIssues, type QualityCheck } from '../translations/quality-checks.ts';
import type { GlossaryRules } from '../glossary/glossary-check.ts';
import { allowedPageOrigin } from '../projects/origins.ts';

export const ACTIVITY_DAYS = 30;

/** The whole percentage of checked translations that pass every check, rounded down; 100 with none. */
const scoreOf = ({ checked, passing }: { checked: number; passing: number }) =>
  checked ? Math.floor((passing * 100) / checked) : 100;

/** Read-only reports over a project's phrases, URLs and translations. */
export class AnalyticsService {
  constructor(
    private readonly reports: AnalyticsRepository,
    private readonly glossary: GlossaryRules,
  ) {}

  /** The page URLs phrases were seen on that start with `prefix` (a site's pages, for its sitemap). */
  pageUrls(projectId: number, prefix: string, limit: number): Promise<string[]> {
    return this.reports.pageUrls(projectId, prefix, limit);
  }

  /** The summary counts; with `languages`, the translations counted are those into them only. */
  async summary(projectId: number, settings: StoredSettings, languages?: readonly string[]) {
    const phrases = await this.reports.phraseCounts(projectId);
    const uniqueUrls = await this.reports.distinctUrlCount(projectId);
    const totalTranslations = await this.reports.translationCount(projectId, languages);
    return {
      totalPhrases: phrases.total,
      approvedPhrases: phrases.approved,
      pendingPhrases: phrases.pending,
      trashPhrases: phrases.trash,
      uniqueUrls,
      totalTranslations,
      languageCount: settings.languages.length,
      phrasesWithSlots: phrases.withSlots,
    };
  }

  /** Per configured language: approved phrases translated, and that as a whole percentage of approved phrases. */
  async languages(projectId: number, settings: StoredSettings) {
    const total = await this.reports.approvedCount(projectId);
    const byLang = await this.reports.approvedTranslationsByLang(projectId);
    return settings.languages.map((lang) => {
      const translated = byLang.get(lang) ?? 0;
      return { lang, translated, coverage: total ? Math.round((translated * 100) / total) : 0 };
    });
  }

  /**
   * The quality checks over every translation of an approved phrase into a configured language: how
   * many pass all, the share that does as the project's score (100 with nothing to check), and how often
   * each check fails, overall and per language.
   */
  async quality(projectId: number, settings: StoredSettings) {
    const languages = new Map(settings.languages.map((lang) => [lang, { lang, checked: 0, passing: 0 }]));
    const failures = new Map<QualityCheck, number>(QUALITY_CHECKS.map((check) => [check, 0]));
    const rules = new Map(
      await Promise.all(
        settings.languages.map(
          async (lang) => [lang, await this.glossary.rulesFor(projectId, lang)] as const,
        ),
      ),
    );
    for (const row of await this.reports.approvedTranslationTexts(projectId)) {
      const language = languages.get(row.lang);
      if (!language) continue;
      const issues = qualityIssues(row.key, row.value, rules.get(row.lang));
      language.checked += 1;
      if (!issues.length) language.passing += 1;
      for (const issue of issues) failures.set(issue.check, failures.get(issue.check)! + 1);
    }
    const byLanguage = [...languages.values()].map((l) => ({ ...l, score: scoreOf(l) }));
    const checked = byLanguage.reduce((n, l) => n + l.checked, 0);
    const passing = byLanguage.reduce((n, l) => n + l.passing, 0);
    return {
      checked,
      passing,
      score: scoreOf({ checked, passing }),
      byCheck: [...failures].map(([check, failing]) => ({ check, failing })),
      byLanguage,
    };
  }

  /**
   * The pages phrases were seen on; `onAllowedOrigin` says whether a page may be linked to and opened for
   * editing (pages recorded before registration checked the address, or whose origin was taken off the
   * list since, may not).
   */
  async urls(
    projectId: number,
    allowedOrigins: readonly string[],
    query: { search?: string | undefined; limit: number; offset: number },
  ) {
    const { total, rows } = await this.reports.urls(projectId, query);
    return {
      total,
      rows: rows.map((row) => ({ ...row, onAllowedOrigin: !!allowedPageOrigin(allowedOrigins, row.url) })),
    };
  }

  async urlDetail(projectId: number, allowedOrigins: readonly string[], url: string) {
    const rows = await this.reports.phrasesOnUrl(projectId, url);
    if (!rows.length) throw notFound('No phrase was seen on this URL.');
    return {
      url,
      onAllowedOrigin: !!allowedPageOrigin(allowedOrigins, url),
      totalPhrases: rows.length,
      approved: rows.filter((row) => row.status === 'approved').length,
      pending: rows.filter((row) => row.status === 'pending').length,
      pendingKeyIds: rows.filter((row) => row.status === 'pending').map((row) => row.id),
    };
  }

  /** Phrases first seen per day (UTC) over the last 30 days, today included, oldest first, zeros too. */
  async activity(projectId: number, now = Date.now()) {
    const days = Array.from({ length: ACTIVITY_DAYS }, (_, i) =>
      dayOf(now - (ACTIVITY_DAYS - 1 - i) * 86_400_000),
    );
    const counts = await this.reports.firstSeenPerDay(projectId, days[0]!);
    return days.map((day) => ({ day, count: counts.get(day) ?? 0 }));
  }

  async phraseDetail(projectId: number, id: number) {
    const phrase = await this.reports.phrase(projectId, id);
    if (!phrase) throw notFound(`Phrase ${id} not found.`);
    const translations = await this.reports.translationsOf(projectId, id);
    return { ...phrase, translations };
  }
}
