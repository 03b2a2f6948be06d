import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { TranslatorServices } from '../services.ts';
import { actorOf, projectOf } from '../http/auth.ts';
import {
  IdParams,
  Ids,
  LangCode,
  Nullable,
  responses,
  RowId,
  TranslationStateSchema,
} from '../common/schemas.ts';
import { errorsOf } from '../errors/catalogue.ts';

const HistoryEntrySchema = Type.Object({
  id: Type.Integer(),
  phraseId: Type.Integer(),
  lang: Type.String(),
  oldValue: Nullable(Type.String()),
  newValue: Nullable(Type.String()),
  oldState: Nullable(TranslationStateSchema),
  newState: Nullable(TranslationStateSchema),
  source: Type.Union([
    Type.Literal('human'),
    Type.Literal('ai'),
    Type.Literal('import'),
    Type.Literal('memory'),
    Type.Literal('revert'),
    Type.Literal('carried'),
  ]),
  actor: Type.String(),
  revertedId: Nullable(Type.Integer()),
  createdAt: Type.String(),
});

/** Review states and the history of translations (additions to the spec's translation routes). */
export function translationHistoryRoutes(app: FastifyInstance, services: TranslatorServices) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { history } = services;

  api.patch(
    '/api/translations/state',
    {
      config: {
        access: 'review',
        langsOf: (request) =>
          history.languagesOf(projectOf(request).id, 'translations', (request.body as { ids: number[] }).ids),
      },
      schema: {
        tags: ['translations'],
        summary: 'Mark translations reviewed (or back to human), by their ids',
        body: Type.Object({
          ids: Ids,
          state: Type.Union([Type.Literal('human'), Type.Literal('reviewed')]),
        }),
        response: responses({ 200: Type.Object({ ok: Type.Boolean(), updated: Type.Integer() }) }),
      },
    },
    async (request) =>
      history.setState(projectOf(request).id, request.body.ids, request.body.state, actorOf(request)),
  );

  api.get(
    '/api/translations/history',
    {
      schema: {
        tags: ['translations'],
        summary: 'Every change of one phrase’s translation into lang, newest first (at most 500)',
        querystring: Type.Object({ phrase_id: RowId, lang: LangCode }),
        response: responses({ 200: Type.Object({ entries: Type.Array(HistoryEntrySchema) }) }),
      },
    },
    async (request) => history.list(projectOf(request).id, request.query.phrase_id, request.query.lang),
  );

  api.post(
    '/api/translations/history/:id/revert',
    {
      config: {
        access: 'translate',
        errors: errorsOf('slot_mismatch'),
        langsOf: (request) =>
          history.languagesOf(projectOf(request).id, 'history', [(request.params as { id: number }).id]),
      },
      schema: {
        tags: ['translations'],
        summary: 'Undo one change: the translation gets back its value and state from before it',
        params: IdParams,
        response: responses({ 200: Type.Object({ ok: Type.Boolean(), changed: Type.Boolean() }) }),
      },
    },
    async (request) => history.revert(projectOf(request).id, request.params.id, actorOf(request)),
  );
}
