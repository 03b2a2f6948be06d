import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { TranslatorServices } from '../services.ts';
import { projectOf } from '../http/auth.ts';
import { inVisibleLanguages, languageScope, visibleSettings } from '../http/session-auth.ts';
import { Offset, PageLimit, QualityCheckSchema, responses, RowId } from '../common/schemas.ts';

const Int = Type.Integer();
const OnAllowedOrigin = Type.Boolean({
  description:
    'Whether the page is an http(s) address on the project’s allowed origins: only such a page is shown as a ' +
    'link and opened for in-page editing',
});

export function analyticsRoutes(app: FastifyInstance, services: TranslatorServices) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { analytics, projects } = services;

  api.get(
    '/api/analytics',
    {
      schema: {
        tags: ['analytics'],
        summary: 'Summary counts',
        response: responses({
          200: Type.Object({
            totalPhrases: Int,
            approvedPhrases: Int,
            pendingPhrases: Int,
            trashPhrases: Int,
            uniqueUrls: Int,
            totalTranslations: Int,
            languageCount: Int,
            phrasesWithSlots: Int,
          }),
        }),
      },
    },
    async (request) => {
      const { id } = projectOf(request);
      return analytics.summary(
        id,
        visibleSettings(request, await projects.settings(id)),
        languageScope(request),
      );
    },
  );

  api.get(
    '/api/analytics/languages',
    {
      schema: {
        tags: ['analytics'],
        summary: 'Translation coverage of approved phrases per configured language (percent)',
        response: responses({
          200: Type.Array(Type.Object({ lang: Type.String(), translated: Int, coverage: Int })),
        }),
      },
    },
    async (request) => {
      const { id } = projectOf(request);
      return analytics.languages(id, visibleSettings(request, await projects.settings(id)));
    },
  );

  api.get(
    '/api/analytics/quality',
    {
      schema: {
        tags: ['analytics'],
        summary:
          'Quality checks (numbers, spaces at the ends, sentence end, length) over the translations of approved phrases',
        response: responses({
          200: Type.Object({
            checked: Int,
            passing: Int,
            score: Type.Integer({ description: 'Percentage of checked translations passing every check' }),
            byCheck: Type.Array(Type.Object({ check: QualityCheckSchema, failing: Int })),
            byLanguage: Type.Array(
              Type.Object({ lang: Type.String(), checked: Int, passing: Int, score: Int }),
            ),
          }),
        }),
      },
    },
    async (request) => {
      const { id } = projectOf(request);
      return analytics.quality(id, visibleSettings(request, await projects.settings(id)));
    },
  );

  api.get(
    '/api/analytics/urls',
    {
      schema: {
        tags: ['analytics'],
        summary: 'Pages phrases were seen on',
        querystring: Type.Object({
          search: Type.Optional(Type.String({ maxLength: 2048 })),
          limit: PageLimit,
          offset: Offset,
        }),
        response: responses({
          200: Type.Object({
            total: Int,
            rows: Type.Array(
              Type.Object({
                url: Type.String(),
                onAllowedOrigin: OnAllowedOrigin,
                phraseCount: Int,
                approved: Int,
                pending: Int,
              }),
            ),
          }),
        }),
      },
    },
    async (request) => {
      const { id, settings } = projectOf(request);
      return analytics.urls(id, settings.allowedOrigins, request.query);
    },
  );

  api.get(
    '/api/analytics/url-detail',
    {
      schema: {
        tags: ['analytics'],
        summary: 'Phrases of one page',
        querystring: Type.Object({ url: Type.String({ minLength: 1, maxLength: 2048 }) }),
        response: responses({
          200: Type.Object({
            url: Type.String(),
            onAllowedOrigin: OnAllowedOrigin,
            totalPhrases: Int,
            approved: Int,
            pending: Int,
            pendingKeyIds: Type.Array(Int),
          }),
        }),
      },
    },
    async (request) => {
      const { id, settings } = projectOf(request);
      return analytics.urlDetail(id, settings.allowedOrigins, request.query.url);
    },
  );

  api.get(
    '/api/analytics/activity',
    {
      schema: {
        tags: ['analytics'],
        summary: 'Phrases discovered per day over the last 30 days (UTC), every day listed',
        response: responses({
          200: Type.Array(Type.Object({ day: Type.String({ format: 'date' }), count: Int })),
        }),
      },
    },
    async (request) => analytics.activity(projectOf(request).id),
  );

  api.get(
    '/api/analytics/phrase-detail',
    {
      schema: {
        tags: ['analytics'],
        summary: 'A phrase with all its translations (a translator’s or reviewer’s: in their languages)',
        querystring: Type.Object({ id: RowId }),
        response: responses({
          200: Type.Object({
            id: Int,
            key: Type.String(),
            context: Type.String(),
            status: Type.String(),
            translations: Type.Array(Type.Object({ lang: Type.String(), value: Type.String() })),
          }),
        }),
      },
    },
    async (request) => {
      const phrase = await analytics.phraseDetail(projectOf(request).id, request.query.id);
      return { ...phrase, translations: inVisibleLanguages(request, phrase.translations) };
    },
  );
}
