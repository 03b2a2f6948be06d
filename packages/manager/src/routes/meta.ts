import { Type } from 'typebox';
import { isLocalRequest } from '@app/server-kit';
import type { Api } from '../common/api.ts';
import { Data, Nullable, responses } from '../common/schemas.ts';
import { setSessionCookie } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';

export async function metaRoutes(api: Api, services: Services) {
  const { config } = services.ctx;

  api.get(
    '/csrf-token',
    {
      schema: {
        tags: ['Meta'],
        summary: 'CSRF token bound to the session (creates an anonymous session when there is none)',
        response: responses({ 200: Data(Type.Object({ csrfToken: Type.String() })) }),
      },
    },
    async (request, reply) => {
      let session = request.session;
      if (!session) {
        session = await services.sessions.create(null);
        setSessionCookie(reply, session, config.production);
      }
      return { data: { csrfToken: session.csrfToken } };
    },
  );

  api.get(
    '/health',
    {
      schema: {
        tags: ['Meta'],
        summary: 'Service status and the announcement banner',
        response: responses({
          200: Data(
            Type.Object({
              status: Type.String(),
              isDev: Type.Boolean(),
              oidcEnabled: Type.Boolean(),
              banner: Nullable(Type.String()),
            }),
          ),
        }),
      },
    },
    async (request) => {
      const { bannerMessage } = await services.settings.get();
      return {
        data: {
          status: 'ok',
          isDev: config.devLogin && isLocalRequest(request),
          oidcEnabled: Boolean(services.oidc),
          banner: bannerMessage || null,
        },
      };
    },
  );
}
