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
        summary:
          'CSRF token bound to the session; a browser that has not signed in gets one in its cookie (nothing is stored)',
        response: responses({ 200: Data(Type.Object({ csrfToken: Type.String() })) }),
      },
    },
    async (request, reply) => {
      if (request.session) return { data: { csrfToken: request.session.csrfToken } };
      let pre = request.preSession;
      if (!pre) {
        pre = services.preSessions.create();
        setSessionCookie(reply, services.preSessions.cookie(pre), config.production);
      }
      return { data: { csrfToken: pre.csrfToken } };
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
