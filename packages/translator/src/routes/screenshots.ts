import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { TranslatorServices } from '../services.ts';
import { projectOf } from '../http/auth.ts';
import { IdParams, Nullable, responses } from '../common/schemas.ts';
import { errorsOf } from '../errors/catalogue.ts';

const StatusSchema = Type.Object({
  enabled: Type.Boolean({ description: "The project's screenshotsEnabled setting" }),
  available: Type.Boolean({
    description: 'Whether this translator can take screenshots (Chromium is installed)',
  }),
  reason: Nullable(Type.String({ description: 'Why it cannot' })),
  captured: Type.Integer({ description: 'Phrases with a screenshot' }),
  failed: Type.Integer({ description: 'Phrases whose page or element could not be photographed' }),
  pending: Type.Integer({ description: 'Phrases seen on a page that wait for their screenshot' }),
});

/** Screenshots as context (extension to the spec): where each phrase appears on its page. */
export function screenshotRoutes(app: FastifyInstance, services: TranslatorServices) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { screenshots } = services;

  api.get(
    '/api/screenshots/status',
    {
      config: { access: 'read' },
      schema: {
        tags: ['screenshots'],
        summary: 'Whether screenshots are on and can be taken here, and how many phrases have one',
        response: responses({ 200: StatusSchema }),
      },
    },
    async (request) => screenshots.status(projectOf(request).id),
  );

  api.post(
    '/api/screenshots/capture',
    {
      config: { access: 'manage', errors: errorsOf('screenshots_disabled', 'screenshots_unavailable') },
      schema: {
        tags: ['screenshots'],
        summary:
          'Take the screenshots of the phrases that have none now (failed ones again); answers at once with ' +
          'how many this run takes (at most TRANSLATOR_SCREENSHOTS_PER_RUN) and how many wait in all',
        response: responses({ 202: Type.Object({ queued: Type.Integer(), pending: Type.Integer() }) }),
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(await screenshots.capture(projectOf(request).id, services.screenshotConfig.perRun)),
  );

  api.get(
    '/api/phrases/:id/screenshot',
    {
      config: { access: 'read' },
      schema: {
        tags: ['screenshots'],
        summary: 'The screenshot of the page where the phrase appears, the phrase outlined in red (PNG)',
        params: IdParams,
        produces: ['image/png'],
      },
    },
    async (request, reply) => {
      const png = await screenshots.image(projectOf(request).id, request.params.id);
      return reply
        .header('content-type', 'image/png')
        .header('cache-control', 'private, no-cache')
        .header('x-content-type-options', 'nosniff')
        .send(png);
    },
  );
}
