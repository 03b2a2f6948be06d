import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { TranslatorServices } from '../services.ts';
import { actorOf, projectOf } from '../http/auth.ts';
import { visibleLanguages, visibleSettings } from '../http/session-auth.ts';
import {
  IdParams,
  LangCode,
  Nullable,
  PageLimit,
  PageNumber,
  PhraseStatusSchema,
  QualityIssueSchema,
  responses,
  RowId,
  TranslationStateSchema,
  VarSlot,
} from '../common/schemas.ts';
import { sendCached } from '../http/cached-body.ts';
import { KNOWN_LANGUAGES, languageName } from '../projects/languages.ts';
import { errorsOf } from '../errors/catalogue.ts';

const TranslationSchema = Type.Object({ key: Type.String(), context: Type.String(), value: Type.String() });
const ExportSchema = Type.Object({
  languages: Type.Array(Type.String()),
  languageNames: Type.Record(Type.String(), Type.String()),
  translations: Type.Record(Type.String(), Type.Array(TranslationSchema)),
  timestamp: Type.Integer(),
});

export function translationRoutes(app: FastifyInstance, services: TranslatorServices) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { translations, projects } = services;

  api.get(
    '/api/translations',
    {
      schema: {
        tags: ['translations'],
        summary:
          'Approved translations of one language, only reviewed ones when settings.deliverReviewedOnly (cached, ETag, compressed)',
        querystring: Type.Object({ lang: LangCode }),
        response: { 200: Type.Array(TranslationSchema) },
      },
    },
    async (request, typedReply) => {
      // The body is cached bytes, so the reply is untyped: no serialiser runs on the hot path.
      const reply = typedReply as FastifyReply;
      const cached = translations.deliver(projectOf(request), request.query.lang);
      const entry = 'then' in cached ? await cached : cached;
      reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding, x-api-key, origin');
      return sendCached(request, reply, entry, 'application/json; charset=utf-8');
    },
  );

  api.get(
    '/api/translations/all',
    {
      schema: {
        tags: ['translations'],
        summary: 'Phrases with their translation in lang, filtered and paged (the dashboard list)',
        querystring: Type.Object({
          lang: Type.Optional(LangCode),
          status: Type.Optional(PhraseStatusSchema),
          state: Type.Optional(TranslationStateSchema),
          search: Type.Optional(Type.String({ maxLength: 500 })),
          search_field: Type.Optional(
            Type.Union(['key', 'value', 'context', 'url', 'all'].map((name) => Type.Literal(name))),
          ),
          translated: Type.Optional(Type.Union([Type.Literal('yes'), Type.Literal('no')])),
          outdated: Type.Optional(Type.Union([Type.Literal('yes'), Type.Literal('no')])),
          ids: Type.Optional(
            Type.String({
              pattern: '^[0-9]{1,15}(,[0-9]{1,15}){0,99}$',
              description:
                'Only these phrases, in any status (comma-separated ids, at most 100): the other languages of a page the grid shows side by side (extension)',
            }),
          ),
          page: PageNumber,
          limit: PageLimit,
        }),
        response: responses({
          200: Type.Object({
            rows: Type.Array(
              Type.Object({
                id: Type.Integer(),
                key: Type.String(),
                context: Type.String(),
                status: PhraseStatusSchema,
                varSlots: Type.Array(VarSlot),
                /** The words inside the `{{text:N}}` slots as the page showed them (extension). */
                slotTexts: Type.Array(Type.String()),
                /** Whether GET /api/phrases/{id}/screenshot has an image of where it appears (extension). */
                hasScreenshot: Type.Boolean(),
                value: Nullable(Type.String()),
                translated: Type.Boolean(),
                translationId: Nullable(Type.Integer()),
                state: Nullable(TranslationStateSchema),
                suggestion: Nullable(Type.String()),
                outdatedFrom: Nullable(
                  Type.String({
                    description:
                      'The source text an outdated translation was made for (the phrase replaced it on its page)',
                  }),
                ),
                checks: Type.Array(QualityIssueSchema, {
                  description: 'What the quality checks find in the translation (none without one)',
                }),
                urls: Type.Array(Type.String()),
              }),
            ),
            total: Type.Integer(),
            page: Type.Integer(),
            limit: Type.Integer(),
          }),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      return translations.list(projectOf(request).id, {
        lang: q.lang,
        status: q.status,
        state: q.state,
        search: q.search,
        searchField: q.search_field as 'key' | 'value' | 'context' | 'url' | 'all' | undefined,
        translated: q.translated,
        outdated: q.outdated,
        ids: q.ids?.split(',').map(Number),
        page: q.page,
        limit: q.limit,
      });
    },
  );

  api.post(
    '/api/translations',
    {
      config: {
        access: 'translate',
        errors: errorsOf('unknown_language', 'unknown_phrase', 'slot_mismatch'),
      },
      schema: {
        tags: ['translations'],
        summary: 'Create or replace translations of one language (all or nothing)',
        body: Type.Object({
          lang: LangCode,
          translations: Type.Array(
            Type.Object({
              id: Type.Optional(RowId),
              key: Type.Optional(Type.String({ minLength: 1, maxLength: 4000 })),
              context: Type.Optional(Type.String({ maxLength: 1000 })),
              value: Type.String({ minLength: 1, maxLength: 20_000 }),
            }),
            { minItems: 1, maxItems: 5000 },
          ),
          /** What the history records as the source: a person's save (default) or a file import. */
          source: Type.Optional(Type.Union([Type.Literal('human'), Type.Literal('import')])),
        }),
        response: responses({
          200: Type.Object({
            ok: Type.Boolean(),
            saved: Type.Integer(),
            created: Type.Integer(),
            updated: Type.Integer(),
          }),
        }),
      },
    },
    async (request) => {
      const project = projectOf(request);
      const settings = await projects.settings(project.id);
      const { lang, translations: items, source = 'human' } = request.body;
      return translations.upsert(project.id, settings, lang, items, {
        state: 'human',
        source,
        actor: actorOf(request),
      });
    },
  );

  api.delete(
    '/api/translations/:id',
    {
      config: {
        access: 'translate',
        langsOf: (request) =>
          services.history.languagesOf(projectOf(request).id, 'translations', [
            (request.params as { id: number }).id,
          ]),
      },
      schema: {
        tags: ['translations'],
        summary: 'Delete one translation (by its id, the translationId of the list rows)',
        params: IdParams,
        response: responses({ 200: Type.Object({ ok: Type.Boolean() }) }),
      },
    },
    async (request) => {
      await translations.deleteOne(projectOf(request).id, request.params.id, actorOf(request));
      return { ok: true };
    },
  );

  api.get(
    '/api/languages',
    {
      schema: {
        tags: ['languages'],
        summary:
          'Languages configured for the project, with names; with delivered=yes only those GET /api/translations delivers a translation of (what a page offers)',
        querystring: Type.Object({ delivered: Type.Optional(Type.Literal('yes')) }),
        response: responses({ 200: Type.Array(Type.Object({ code: Type.String(), name: Type.String() })) }),
      },
    },
    async (request) => {
      const project = projectOf(request);
      const settings = await projects.settings(project.id);
      const delivered = request.query.delivered && (await translations.deliveredLanguages(project));
      return visibleLanguages(request, settings.languages)
        .filter((code) => !delivered || delivered.has(code))
        .map((code) => ({ code, name: languageName(code) }));
    },
  );

  api.get(
    '/api/languages/available',
    {
      schema: {
        tags: ['languages'],
        summary:
          'Languages the service names, by name: what the dashboard offers to pick (any well-formed code is accepted)',
        response: responses({ 200: Type.Array(Type.Object({ code: Type.String(), name: Type.String() })) }),
      },
    },
    async () => [...KNOWN_LANGUAGES],
  );

  api.get(
    '/api/export',
    {
      schema: {
        tags: ['languages'],
        summary: 'Approved translations of every language (a translator’s or reviewer’s own languages)',
        response: responses({ 200: ExportSchema }),
      },
    },
    async (request, reply) => {
      const project = projectOf(request);
      reply.header('content-disposition', 'attachment; filename="translations.json"');
      return translations.exportDocument(
        project.id,
        visibleSettings(request, await projects.settings(project.id)),
      );
    },
  );

  api.get(
    '/api/export/:lang',
    {
      config: { errors: errorsOf([404, 'unknown_language']) },
      schema: {
        tags: ['languages'],
        summary: 'Approved translations of one language',
        params: Type.Object({ lang: LangCode }),
        response: responses({ 200: ExportSchema }),
      },
    },
    async (request, reply) => {
      const project = projectOf(request);
      reply.header('content-disposition', `attachment; filename="translations-${request.params.lang}.json"`);
      return translations.exportDocument(
        project.id,
        await projects.settings(project.id),
        request.params.lang,
      );
    },
  );
}
