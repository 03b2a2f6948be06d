import { Type } from 'typebox';
import { isLocalRequest } from '@app/server-kit';
import type { Api } from '../common/api.ts';
import { Data, Nullable, responses } from '../common/schemas.ts';
import { setSessionCookie } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';
import type { Settings } from '../settings/settings-service.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

export async function metaRoutes(api: Api, services: Services) {
  const { config } = services.ctx;
  // Every client polls /health: its two possible answers are made once per settings read (a string is
  // sent as it is, without the serializer or a promise), in the response schema's field order.
  const bodies = new WeakMap<Settings, Record<'dev' | 'live', string>>();
  const healthBody = (settings: Settings, isDev: boolean) => {
    let made = bodies.get(settings);
    if (!made) {
      const body = (dev: boolean) =>
        JSON.stringify({
          data: {
            status: 'ok',
            isDev: dev,
            oidcEnabled: Boolean(services.oidc),
            banner: settings.bannerMessage || null,
          },
        });
      made = { dev: body(true), live: body(false) };
      bodies.set(settings, made);
    }
    return isDev ? made.dev : made.live;
  };

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
    (request, reply) => {
      const isDev = config.devLogin && isLocalRequest(request);
      // A string with a JSON type is sent as it is (`never`: the route's types expect the object).
      const send = (settings: Settings) =>
        void reply.type(JSON_TYPE).send(healthBody(settings, isDev) as never);
      const settings = services.settings.fresh();
      if (settings) return send(settings);
      return services.settings.get().then(send);
    },
  );
}
