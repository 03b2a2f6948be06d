import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { TranslatorServices } from '../services.ts';
import { projectOf } from '../http/auth.ts';
import { LangCode, responses, TranslationStateSchema } from '../common/schemas.ts';

const MemoryMatchSchema = Type.Object({
  source: Type.String(),
  value: Type.String(),
  state: TranslationStateSchema,
  score: Type.Integer({ minimum: 0, maximum: 100 }),
  shared: Type.Boolean(),
  updatedAt: Type.String(),
});

/** Translation memory lookups (an addition to the spec). */
export function memoryRoutes(app: FastifyInstance, services: TranslatorServices) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/api/translations/memory',
    {
      schema: {
        tags: ['translations'],
        summary:
          'Translations people made or approved for this text or similar ones, best first, with a match score (100 = the same text)',
        querystring: Type.Object({
          lang: LangCode,
          text: Type.String({ minLength: 1, maxLength: 5000 }),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 5 })),
        }),
        response: responses({ 200: Type.Object({ matches: Type.Array(MemoryMatchSchema) }) }),
      },
    },
    async (request) => {
      const { lang, text, limit } = request.query;
      return { matches: await services.memory.suggest(projectOf(request).id, lang, text, limit) };
    },
  );
}
