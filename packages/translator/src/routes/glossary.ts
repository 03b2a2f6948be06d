import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { TranslatorServices } from '../services.ts';
import { projectOf } from '../http/auth.ts';
import { inVisibleLanguages } from '../http/session-auth.ts';
import { IdParams, LangCode, Nullable, responses } from '../common/schemas.ts';
import { errorsOf } from '../errors/catalogue.ts';

const GlossaryTermSchema = Type.Object({
  id: Type.Integer(),
  /** The language of the translation; null: every language. */
  lang: Nullable(Type.String()),
  term: Type.String(),
  /** null for a do-not-translate term. */
  translation: Nullable(Type.String()),
  doNotTranslate: Type.Boolean(),
  caseSensitive: Type.Boolean(),
  note: Type.String(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

const TermFields = {
  lang: Type.Optional(Nullable(LangCode)),
  translation: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  doNotTranslate: Type.Optional(Type.Boolean()),
  caseSensitive: Type.Optional(Type.Boolean()),
  note: Type.Optional(Type.String({ maxLength: 500 })),
};
const Term = Type.String({ minLength: 1, maxLength: 200 });

/** The project's glossary (extension to the spec): terms AI jobs follow and translations are checked against. */
export function glossaryRoutes(app: FastifyInstance, services: TranslatorServices) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { glossary, projects } = services;

  api.get(
    '/api/glossary',
    {
      schema: {
        tags: ['glossary'],
        summary:
          'The glossary, by term; with lang, the terms that apply to it (its own and every language’s); a ' +
          'translator or reviewer sees the terms of their languages and of every language',
        querystring: Type.Object({ lang: Type.Optional(LangCode) }),
        response: responses({ 200: Type.Array(GlossaryTermSchema) }),
      },
    },
    async (request) =>
      inVisibleLanguages(request, await glossary.list(projectOf(request).id, request.query.lang)),
  );

  api.post(
    '/api/glossary',
    {
      config: { errors: errorsOf('unknown_language', 'term_exists') },
      schema: {
        tags: ['glossary'],
        summary: 'Add a term: its translation in one language (or every language), or do-not-translate',
        body: Type.Object({ term: Term, ...TermFields }),
        response: responses({ 201: GlossaryTermSchema }),
      },
    },
    async (request, reply) => {
      const { id } = projectOf(request);
      reply.code(201);
      return glossary.create(id, await projects.settings(id), request.body);
    },
  );

  api.patch(
    '/api/glossary/:id',
    {
      config: { errors: errorsOf('unknown_language', 'term_exists') },
      schema: {
        tags: ['glossary'],
        summary: 'Change a term (fields left out keep their value)',
        params: IdParams,
        body: Type.Object({ term: Type.Optional(Term), ...TermFields }),
        response: responses({ 200: GlossaryTermSchema }),
      },
    },
    async (request) => {
      const { id } = projectOf(request);
      return glossary.update(id, await projects.settings(id), request.params.id, request.body);
    },
  );

  api.delete(
    '/api/glossary/:id',
    {
      schema: {
        tags: ['glossary'],
        summary: 'Remove a term',
        params: IdParams,
        response: responses({ 200: Type.Object({ ok: Type.Boolean() }) }),
      },
    },
    async (request) => {
      await glossary.delete(projectOf(request).id, request.params.id);
      return { ok: true };
    },
  );
}
