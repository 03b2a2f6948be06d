import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { guardWithErrors, isLocalRequest, safeRedirect } from '@app/server-kit';
import type { Api } from '../common/api.ts';
import { Data, Nullable, responses } from '../common/schemas.ts';
import { clearSessionCookie, requireUser, principalOf, setSessionCookie } from '../auth/request-auth.ts';
import { OidcError } from '../auth/oidc.ts';
import type { Principal } from '../auth/principal.ts';
import type { SessionData } from '../auth/sessions.ts';
import type { Services } from '../services.ts';
import type { FastifyReply } from 'fastify';
import { actorOf } from '../audit/request-audit.ts';
import { fail, errorsOf } from '../errors/catalogue.ts';

const Message = Data(Type.Object({ message: Type.String() }));
const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });
const Redirect = Type.String({ maxLength: 2048, description: 'a path on this site; anything else means /' });
const Password = Type.String({ minLength: 1, maxLength: 1024 });

export async function authRoutes(api: Api, services: Services) {
  const { config } = services.ctx;
  const secure = config.production;

  /** Replaces any session with a fresh one for the principal: a new id at every sign-in. */
  const signIn = async (
    request: FastifyRequest,
    reply: FastifyReply,
    principal: Principal,
    data: SessionData = {},
  ) => {
    services.audit.describe({ actor: actorOf(principal), target: { type: 'user', id: principal.uidNumber } });
    const previous = request.session;
    const session = await services.audit.audited(async (trx) => {
      if (previous) await services.sessions.destroy(previous.token, trx);
      return services.sessions.create(principal.uidNumber, data, trx);
    });
    setSessionCookie(reply, session, secure);
  };
  const passwordAuthAllowed = guardWithErrors(errorsOf('oidc_enabled'), async () => {
    if (services.oidc)
      throw fail('oidc_enabled', 'Single sign-on is enabled: sign in with your identity provider.');
  });
  const oidcEnabled = guardWithErrors(errorsOf('oidc_disabled'), async () => {
    if (!services.oidc) throw fail('oidc_disabled', 'Single sign-on is not configured.');
  });

  api.get(
    '/session',
    {
      onRequest: requireUser,
      schema: {
        tags: ['Auth'],
        response: responses({ 200: Data(Type.Object({ user: Type.String(), isAdmin: Type.Boolean() })) }),
      },
    },
    (request) => {
      const principal = principalOf(request);
      return { data: { user: principal.uid, isAdmin: principal.isAdmin } };
    },
  );

  api.post(
    '/auth/login',
    {
      config: {
        errors: errorsOf('invalid_credentials', 'account_inactive'),
        audit: { action: 'auth.sign_in', failedAction: 'auth.sign_in_failed' },
      },
      onRequest: passwordAuthAllowed,
      schema: {
        tags: ['Auth'],
        body: Type.Object({
          username: Type.String({ minLength: 1, maxLength: 320 }),
          password: Password,
          redirect: Type.Optional(Redirect),
        }),
        response: responses({
          200: Data(Type.Object({ user: Type.String(), isAdmin: Type.Boolean(), redirect: Type.String() })),
        }),
      },
    },
    async (request, reply) => {
      const { username, password, redirect } = request.body;
      const principal = await services.accounts.login(username, password);
      await signIn(request, reply, principal);
      return { data: { user: principal.uid, isAdmin: principal.isAdmin, redirect: safeRedirect(redirect) } };
    },
  );

  api.get(
    '/auth/oidc/login',
    {
      onRequest: oidcEnabled,
      schema: { tags: ['Auth'], querystring: Type.Object({ redirect: Type.Optional(Redirect) }) },
    },
    async (request, reply) => {
      try {
        const { url, state } = await services.oidc!.start(safeRedirect(request.query.redirect));
        // The flow's state waits in the browser's cookie: starting a sign-in stores nothing here.
        if (request.session) await services.sessions.destroy(request.session.token);
        const pre = { ...(request.preSession ?? services.preSessions.create()), oidc: state };
        setSessionCookie(reply, services.preSessions.cookie(pre), secure);
        return reply.redirect(url, 302);
      } catch (error) {
        return reply.redirect(
          `/login?oidc_error=${error instanceof OidcError ? error.code : 'login_failed'}`,
          302,
        );
      }
    },
  );

  api.get(
    '/auth/oidc/callback',
    {
      onRequest: oidcEnabled,
      config: { audit: { action: 'auth.sign_in', failedAction: 'auth.sign_in_failed' } },
      schema: { tags: ['Auth'] },
    },
    async (request, reply) => {
      const pending = request.preSession?.oidc;
      const query = request.url.split('?')[1] ?? '';
      try {
        const { principal, idToken } = await services.oidc!.finish(query, pending);
        await signIn(request, reply, principal, idToken ? { idToken } : {});
        return reply.redirect(safeRedirect(pending!.redirect), 302);
      } catch (error) {
        if (!(error instanceof OidcError)) request.log.error({ err: error }, 'single sign-on failed');
        else request.log.warn({ code: error.code, reason: error.message }, 'single sign-on refused');
        services.audit.failed(error instanceof OidcError ? error.code : 'login_failed');
        return reply.redirect(
          `/login?oidc_error=${error instanceof OidcError ? error.code : 'login_failed'}`,
          302,
        );
      }
    },
  );

  api.post(
    '/auth/logout',
    {
      schema: {
        tags: ['Auth'],
        response: responses({
          200: Data(Type.Object({ loggedOut: Type.Boolean(), logoutUrl: Nullable(Type.String()) })),
        }),
      },
    },
    async (request, reply) => {
      const { session } = request;
      if (session) await services.audit.audited((trx) => services.sessions.destroy(session.token, trx));
      const idToken = session?.data.idToken;
      clearSessionCookie(reply, secure);
      const logoutUrl = services.oidc ? await services.oidc.logoutUrl(idToken) : null;
      return { data: { loggedOut: true, logoutUrl } };
    },
  );

  api.post(
    '/auth/register',
    {
      config: { errors: errorsOf('invalid_invite', 'email_mismatch') },
      onRequest: passwordAuthAllowed,
      schema: {
        tags: ['Auth'],
        body: Type.Object({
          uid: Type.String({ minLength: 1, maxLength: 64 }),
          givenName: Type.String({ minLength: 1, maxLength: 255 }),
          sn: Type.String({ minLength: 1, maxLength: 255 }),
          mail: Type.String({ minLength: 1, maxLength: 320 }),
          userPassword: Password,
          inviteToken: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: responses({
          201: Data(Type.Object({ uid: Type.String(), status: Type.String(), message: Type.String() })),
        }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      await services.quotas.take('register', request.ip, body.mail);
      const result = await services.accounts.register({
        ...body,
        uid: body.uid.trim().toLowerCase(),
        mail: body.mail.trim(),
        inviteToken: body.inviteToken || undefined,
      });
      return reply.code(201).send({ data: result });
    },
  );

  api.get(
    '/auth/register/invite/:token',
    {
      config: { errors: errorsOf([404, 'invalid_invite']) },
      onRequest: passwordAuthAllowed,
      schema: {
        tags: ['Auth'],
        params: TokenParams,
        response: responses({ 200: Data(Type.Object({ email: Type.String() })) }),
      },
    },
    async (request) => ({ data: { email: await services.accounts.inviteEmail(request.params.token) } }),
  );

  api.post(
    '/auth/password-reset/request',
    {
      schema: {
        tags: ['Auth'],
        body: Type.Object({ usernameOrEmail: Type.String({ minLength: 1, maxLength: 320 }) }),
        response: responses({ 200: Message }),
      },
    },
    async (request) => {
      await services.quotas.take('password-reset', request.ip, request.body.usernameOrEmail);
      services.accounts.requestPasswordReset(request.body.usernameOrEmail);
      return {
        data: { message: 'If an active account matches, a reset link has been sent to its e-mail address.' },
      };
    },
  );

  api.get(
    '/auth/password-reset/:token',
    {
      config: { errors: errorsOf('invalid_token') },
      schema: {
        tags: ['Auth'],
        params: TokenParams,
        response: responses({ 200: Data(Type.Object({ username: Type.String() })) }),
      },
    },
    async (request) => ({ data: { username: await services.accounts.resetUsername(request.params.token) } }),
  );

  api.post(
    '/auth/password-reset/:token',
    {
      config: { errors: errorsOf('mismatch', 'weak_password', 'invalid_token') },
      schema: {
        tags: ['Auth'],
        params: TokenParams,
        body: Type.Object({
          password: Type.String({ maxLength: 1024 }),
          confirmPassword: Type.String({ maxLength: 1024 }),
          revokeApiKeys: Type.Optional(
            Type.Boolean({ default: true, description: "also delete the user's API keys (default true)" }),
          ),
        }),
        response: responses({ 200: Message }),
      },
    },
    async (request) => {
      const { password, confirmPassword, revokeApiKeys } = request.body;
      await services.accounts.completePasswordReset(
        request.params.token,
        password,
        confirmPassword,
        revokeApiKeys ?? true,
      );
      return { data: { message: 'Your password has been changed. Log in with the new password.' } };
    },
  );

  // Loopback callers only, and only with DEV_LOGIN=true: to anyone else it is an unknown route.
  if (config.devLogin) {
    api.post(
      '/auth/dev',
      {
        schema: {
          hide: true,
          body: Type.Optional(Type.Object({ username: Type.Optional(Type.String({ maxLength: 64 })) })),
        },
      },
      async (request, reply) => {
        if (!isLocalRequest(request)) return reply.callNotFound();
        const principal = await services.accounts.devLogin(request.body?.username || 'dev');
        await signIn(request, reply, principal);
        return { data: { user: principal.uid, isAdmin: principal.isAdmin, redirect: '/' } };
      },
    );
  }
}
