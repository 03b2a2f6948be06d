import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError, MAX_REDIRECT_LENGTH, safeRedirect } from '@app/server-kit';
import { MIN_PASSWORD_LENGTH } from '@app/server-kit/passwords';
import type { TranslatorServices } from '../services.ts';
import type { TranslatorConfig } from '../config.ts';
import { Nullable, responses } from '../common/schemas.ts';
import { errorsOf, fail } from '../errors/catalogue.ts';
import { clearSessionCookie, csrfRefusal, sessionOf, setSessionCookie } from '../http/session-auth.ts';
import { SSO_COOKIE, SsoError } from '../accounts/sso.ts';
import { projectOf } from '../http/auth.ts';
import { allowedPageOrigin } from '../projects/origins.ts';
import type { InviteProof } from '../accounts/accounts-service.ts';
import { RoleSchema } from './members.ts';

export const SessionSchema = Type.Object({
  account: Type.Object({ id: Type.Integer(), email: Type.String(), name: Type.String() }),
  /** Send it as X-CSRF-Token on every write made with this session. */
  csrfToken: Type.String(),
  projects: Type.Array(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      role: RoleSchema,
      languages: Type.Array(Type.String()),
      /** What the role may do: read, translate, review, manage, own. */
      access: Type.Array(
        Type.Union([
          Type.Literal('read'),
          Type.Literal('translate'),
          Type.Literal('review'),
          Type.Literal('manage'),
          Type.Literal('own'),
        ]),
      ),
    }),
  ),
  sso: Type.Boolean(),
});

const Email = Type.String({ format: 'email', maxLength: 254 });
const Password = Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: 200 });
const TokenParams = Type.Object({ token: Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$' }) });
/** A dashboard path to come back to after signing in; anything that is not one means `/` (safeRedirect). */
const NextPath = Type.String({ maxLength: MAX_REDIRECT_LENGTH });

/** Dashboard accounts: sign-in (password or SSO), the session, and accepting an invitation. */
export function accountRoutes(app: FastifyInstance, services: TranslatorServices, config: TranslatorConfig) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { accounts, sso } = services;
  const secure = config.production;

  async function signedIn(reply: FastifyReply, accountId: number, idToken: string | null = null) {
    const { token } = await accounts.sessions.create(accountId, idToken);
    setSessionCookie(reply, token, secure);
    const session = await accounts.sessions.find(token);
    return accounts.describe(session!);
  }

  api.get(
    '/api/auth/providers',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['accounts'],
        summary: 'How people sign in to the dashboard: password, and single sign-on when configured',
        response: responses({ 200: Type.Object({ password: Type.Boolean(), sso: Type.Boolean() }) }),
      },
    },
    async () => ({ password: true, sso: sso !== undefined }),
  );

  api.post(
    '/api/auth/login',
    {
      config: { auth: 'none', errors: errorsOf('invalid_credentials') },
      schema: {
        tags: ['accounts'],
        summary: 'Sign in with e-mail and password: sets the session cookie',
        body: Type.Object({ email: Email, password: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: responses({ 200: SessionSchema }),
      },
    },
    async (request, reply) => {
      return signedIn(reply, await accounts.login(request.body.email, request.body.password));
    },
  );

  api.get(
    '/api/auth/session',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['accounts'],
        summary:
          'The signed-in account, its CSRF token and its projects with its role in each; null when this ' +
          'browser is not signed in',
        response: responses({ 200: Nullable(SessionSchema) }),
      },
    },
    async (request) => {
      const session = await sessionOf(request, accounts);
      return session ? accounts.describe(session) : null;
    },
  );

  api.post(
    '/api/auth/logout',
    {
      config: { auth: 'none', errors: errorsOf('csrf_invalid') },
      schema: {
        tags: ['accounts'],
        summary: 'Sign out: ends the session; logoutUrl also signs out at the SSO provider',
        response: responses({ 200: Type.Object({ logoutUrl: Nullable(Type.String()) }) }),
      },
    },
    async (request, reply) => {
      const session = await sessionOf(request, accounts);
      if (!session) return { logoutUrl: null };
      const refusal = csrfRefusal(request, session);
      if (refusal) throw refusal;
      await accounts.sessions.destroy(session.token);
      clearSessionCookie(reply, secure);
      return { logoutUrl: session.idToken && sso ? await sso.logoutUrl(session.idToken) : null };
    },
  );

  api.get(
    '/api/auth/oidc/start',
    {
      config: { auth: 'none', errors: errorsOf('sso_not_configured') },
      schema: {
        tags: ['accounts'],
        summary: 'Sign in through the OpenID provider (a redirect); invite accepts an invitation on the way',
        querystring: Type.Object({
          next: Type.Optional(NextPath),
          invite: Type.Optional(TokenParams.properties.token),
        }),
        response: { 302: Type.Null() },
      },
    },
    async (request, reply) => {
      if (!sso) throw fail('sso_not_configured');
      try {
        const { url, cookie } = await sso.start(safeRedirect(request.query.next), request.query.invite);
        reply.setCookie(SSO_COOKIE, cookie, {
          path: '/api/auth/oidc',
          httpOnly: true,
          sameSite: 'lax',
          secure,
        });
        return reply.redirect(url);
      } catch (error) {
        if (error instanceof SsoError) return reply.redirect(`/sign-in?sso_error=${error.code}`);
        throw error;
      }
    },
  );

  api.get(
    '/api/auth/oidc/callback',
    {
      config: { auth: 'none', errors: errorsOf('sso_not_configured') },
      schema: {
        tags: ['accounts'],
        summary: 'Where the OpenID provider sends the browser back: sets the session cookie, then a redirect',
        querystring: Type.Object({}, { additionalProperties: Type.String({ maxLength: 4096 }) }),
        response: { 302: Type.Null() },
      },
    },
    async (request, reply) => {
      if (!sso) throw fail('sso_not_configured');
      const pending = sso.pendingOf(request.cookies[SSO_COOKIE]);
      reply.clearCookie(SSO_COOKIE, { path: '/api/auth/oidc', httpOnly: true, sameSite: 'lax', secure });
      try {
        const query = request.raw.url!.split('?')[1] ?? '';
        const person = await sso.finish(query, pending);
        let accountId = await accounts.accountOfVerifiedEmail(person.email);
        if (pending!.invite)
          ({ accountId } = await accounts.accept(pending!.invite, {
            kind: 'sso',
            email: person.email,
            name: person.name,
          }));
        if (accountId === undefined)
          throw new SsoError(
            'no_account',
            `No account uses ${person.email}: ask a project owner for an invitation.`,
          );
        await signedIn(reply, accountId, person.idToken ?? null);
        return reply.redirect(safeRedirect(pending!.next));
      } catch (error) {
        if (!(error instanceof SsoError || error instanceof AppError)) throw error;
        const code = error.code;
        request.log.info({ err: error }, 'single sign-on refused');
        return reply.redirect(`/sign-in?sso_error=${code}`);
      }
    },
  );

  api.post(
    '/api/auth/edit-token',
    {
      config: { access: 'translate', errors: errorsOf('origin_not_allowed') },
      schema: {
        tags: ['accounts'],
        summary:
          'A short-lived token (30 minutes) for editing translations on the live page `url` (on one of the ' +
          'allowed origins): open it with #loco-edit=<token>; the token works only from that page’s origin and ' +
          'saves and reviews what your role allows, nothing else',
        body: Type.Object({ url: Type.String({ minLength: 1, maxLength: 2048 }) }),
        response: responses({
          201: Type.Object({ token: Type.String(), origin: Type.String(), expiresAt: Type.String() }),
        }),
      },
    },
    async (request, reply) => {
      if (!request.account)
        throw fail(
          'forbidden',
          'In-page editing is for people signed in to the dashboard, not for API keys.',
        );
      const project = projectOf(request);
      const origin = allowedPageOrigin(project.settings.allowedOrigins, request.body.url);
      if (!origin)
        throw fail(
          'origin_not_allowed',
          'Pages are opened for editing only on the project’s allowed origins (http or https), and this ' +
            'address is not on one of them: add its origin under Settings → Allowed origins.',
        );
      reply.code(201);
      return accounts.editTokens.issue(project.id, request.account.accountId, origin);
    },
  );

  api.get(
    '/api/invites/:token',
    {
      config: { auth: 'none', errors: errorsOf('invite_not_found') },
      schema: {
        tags: ['accounts'],
        summary: 'What an invitation link offers: the project, the role, and whether the account exists',
        params: TokenParams,
        response: responses({
          200: Type.Object({
            projectName: Type.String(),
            email: Type.String(),
            role: RoleSchema,
            languages: Type.Array(Type.String()),
            accountExists: Type.Boolean(),
          }),
        }),
      },
    },
    async (request) => accounts.preview(request.params.token),
  );

  api.post(
    '/api/invites/:token/accept',
    {
      config: {
        auth: 'none',
        errors: errorsOf('invite_not_found', 'invite_other_account', 'invalid_credentials', 'csrf_invalid'),
      },
      schema: {
        tags: ['accounts'],
        summary:
          'Accept an invitation: a new account sends name and password, an existing one its password ' +
          '(or nothing when signed in); sets the session cookie',
        params: TokenParams,
        body: Type.Object({
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
          password: Type.Optional(Password),
        }),
        response: responses({ 200: SessionSchema }),
      },
    },
    async (request, reply) => {
      const session = await sessionOf(request, accounts);
      let proof: InviteProof;
      if (session && request.body.password === undefined) {
        const refusal = csrfRefusal(request, session);
        if (refusal) throw refusal;
        proof = { kind: 'account', accountId: session.accountId };
      } else proof = { kind: 'password', name: request.body.name, password: request.body.password ?? '' };
      const { accountId } = await accounts.accept(request.params.token, proof);
      if (session?.accountId === accountId) return accounts.describe(session);
      return signedIn(reply, accountId);
    },
  );
}
