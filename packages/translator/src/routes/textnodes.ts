import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { TranslatorServices } from '../services.ts';
import type { TranslatorConfig } from '../config.ts';
import { projectOf } from '../http/auth.ts';
import { IdParams, Ids, LangCode, PhraseStatusSchema, responses, VarSlot } from '../common/schemas.ts';
import { MAX_KEYS_PER_REQUEST } from '../phrases/phrases-service.ts';

const PhraseSchema = Type.Object({
  id: Type.Integer(),
  key: Type.String(),
  context: Type.String(),
  status: PhraseStatusSchema,
  varSlots: Type.Array(VarSlot),
});

const Counts = Type.Object({ pending: Type.Integer(), approved: Type.Integer(), trash: Type.Integer() });

export function textnodeRoutes(app: FastifyInstance, services: TranslatorServices, config: TranslatorConfig) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { phrases } = services;

  api.post(
    '/api/textnodes',
    {
      schema: {
        tags: ['textnodes'],
        summary:
          `Register the phrases seen on a page (up to ${MAX_KEYS_PER_REQUEST} per call). With the page key, ` +
          'url must be a page on the allowed origins (else 422), and new phrases are added only while fewer ' +
          'than TRANSLATOR_PAGE_MAX_PENDING wait for review (429 when none fit)',
        body: Type.Object({
          keys: Type.Array(
            Type.Object({
              key: Type.String({ minLength: 1, maxLength: 4000, pattern: '\\S' }),
              context: Type.Optional(Type.String({ maxLength: 1000 })),
              /** The words inside the key's `{{text:N}}` slots, in order, as the page shows them. */
              slots: Type.Optional(Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 50 })),
            }),
            { maxItems: MAX_KEYS_PER_REQUEST },
          ),
          url: Type.Optional(Type.String({ maxLength: 2048 })),
        }),
        response: responses({
          200: Type.Object({
            ok: Type.Boolean(),
            registered: Type.Integer(),
            keyMap: Type.Record(Type.String(), Type.String()),
          }),
        }),
      },
    },
    async (request) =>
      phrases.register(
        projectOf(request).id,
        request.body.keys,
        request.body.url || undefined,
        request.viaPageKey
          ? {
              maxPending: config.pageKey.maxPendingPhrases,
              maxUrls: config.pageKey.maxUrls,
              allowedOrigins: projectOf(request).settings.allowedOrigins,
            }
          : {},
      ),
  );

  api.get(
    '/api/translations/counts',
    {
      schema: {
        tags: ['textnodes'],
        summary: 'Phrase counts per status',
        response: responses({ 200: Counts }),
      },
    },
    async (request) => phrases.counts(projectOf(request).id),
  );

  api.patch(
    '/api/textnodes/status',
    {
      schema: {
        tags: ['textnodes'],
        summary: 'Set the status of many phrases',
        body: Type.Object({ ids: Ids, status: PhraseStatusSchema }),
        response: responses({ 200: Type.Object({ ok: Type.Boolean(), updated: Type.Integer() }) }),
      },
    },
    async (request) => ({
      ok: true,
      updated: await phrases.setStatus(projectOf(request).id, request.body.ids, request.body.status),
    }),
  );

  api.get(
    '/api/textnodes/untranslated-ids',
    {
      schema: {
        tags: ['textnodes'],
        summary: 'Ids of approved phrases without a translation in lang',
        querystring: Type.Object({ lang: LangCode }),
        response: responses({ 200: Type.Object({ ids: Type.Array(Type.Integer()), total: Type.Integer() }) }),
      },
    },
    async (request) => {
      const ids = await phrases.untranslatedIds(projectOf(request).id, request.query.lang);
      return { ids, total: ids.length };
    },
  );

  api.post(
    '/api/textnodes/bulk-delete',
    {
      schema: {
        tags: ['textnodes'],
        summary: 'Delete phrases and their translations',
        body: Type.Object({ ids: Ids }),
        response: responses({ 200: Type.Object({ ok: Type.Boolean(), deleted: Type.Integer() }) }),
      },
    },
    async (request) => ({ ok: true, deleted: await phrases.delete(projectOf(request).id, request.body.ids) }),
  );

  api.post(
    '/api/textnodes/clear-pending',
    {
      schema: {
        tags: ['textnodes'],
        summary: 'Delete every pending phrase',
        response: responses({ 200: Type.Object({ ok: Type.Boolean(), deleted: Type.Integer() }) }),
      },
    },
    async (request) => ({ ok: true, deleted: await phrases.clearPending(projectOf(request).id) }),
  );

  api.delete(
    '/api/textnodes/:id',
    {
      schema: {
        tags: ['textnodes'],
        summary: 'Delete one phrase and its translations',
        params: IdParams,
        response: responses({ 200: Type.Object({ ok: Type.Boolean(), deleted: Type.Integer() }) }),
      },
    },
    async (request) => {
      await phrases.deleteOne(projectOf(request).id, request.params.id);
      return { ok: true, deleted: 1 };
    },
  );

  api.patch(
    '/api/phrases/:id',
    {
      schema: {
        tags: ['textnodes'],
        summary: 'Edit a phrase’s key and variable slots',
        params: IdParams,
        body: Type.Object({
          key: Type.Optional(Type.String({ minLength: 1, maxLength: 4000, pattern: '\\S' })),
          varSlots: Type.Optional(Type.Array(VarSlot, { maxItems: 100 })),
        }),
        response: responses({ 200: PhraseSchema }),
      },
    },
    async (request) => phrases.edit(projectOf(request).id, request.params.id, request.body),
  );
}
