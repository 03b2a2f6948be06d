import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { TranslatorServices } from '../services.ts';
import type { MemberRole } from '../db/schema.ts';
import { actorOf, projectOf } from '../http/auth.ts';
import { LangCode, Nullable, responses, RowId } from '../common/schemas.ts';
import { errorsOf, fail } from '../errors/catalogue.ts';
import { isLanguageScoped } from '../accounts/roles.ts';

export const RoleSchema = Type.Union([
  Type.Literal('owner'),
  Type.Literal('manager'),
  Type.Literal('reviewer'),
  Type.Literal('translator'),
  Type.Literal('viewer'),
]);

const RoleFields = {
  role: RoleSchema,
  /** The languages of a translator or reviewer (ignored for the other roles). */
  languages: Type.Array(LangCode, { maxItems: 200, default: [] }),
};

const MemberSchema = Type.Object({
  accountId: Type.Integer(),
  email: Type.String(),
  name: Type.String(),
  role: RoleSchema,
  languages: Type.Array(Type.String()),
});

const InviteSchema = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  role: RoleSchema,
  languages: Type.Array(Type.String()),
  invitedBy: Type.String(),
  expiresAt: Type.String(),
});

const AccountParams = Type.Object({ accountId: RowId });

/** The project's team (owners only): members with their roles, and invitations by e-mail. */
export function memberRoutes(app: FastifyInstance, services: TranslatorServices) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { accounts, projects } = services;

  /** A translator or reviewer needs languages, and only the project's own. */
  async function checkLanguages(projectId: number, role: MemberRole, languages: string[]) {
    if (!isLanguageScoped(role)) return;
    if (!languages.length)
      throw fail('validation_failed', undefined, { languages: `Pick the languages this ${role} works on.` });
    const configured = (await projects.settings(projectId)).languages;
    const unknown = languages.filter((lang) => !configured.includes(lang));
    if (unknown.length)
      throw fail('unknown_language', `Add ${unknown.join(', ')} to the project's languages first.`);
  }

  api.get(
    '/api/members',
    {
      config: { access: 'own' },
      schema: {
        tags: ['members'],
        summary: 'The project’s members and the invitations not yet accepted',
        response: responses({
          200: Type.Object({ members: Type.Array(MemberSchema), invites: Type.Array(InviteSchema) }),
        }),
      },
    },
    async (request) => {
      const { members, invites } = await accounts.team(projectOf(request).id);
      return {
        members,
        invites: invites.map(({ projectId: _project, createdAt: _created, ...invite }) => invite),
      };
    },
  );

  api.post(
    '/api/members/invites',
    {
      config: { access: 'own', errors: errorsOf('unknown_language') },
      schema: {
        tags: ['members'],
        summary:
          'Invite someone by e-mail: path is the invitation link to send them (url too when ' +
          'TRANSLATOR_PUBLIC_URL is set); a new invitation to the same address replaces the last',
        body: Type.Object({ email: Type.String({ format: 'email', maxLength: 254 }), ...RoleFields }),
        response: responses({
          201: Type.Object({ ...InviteSchema.properties, path: Type.String(), url: Nullable(Type.String()) }),
        }),
      },
    },
    async (request, reply) => {
      const project = projectOf(request);
      await checkLanguages(project.id, request.body.role, request.body.languages);
      reply.code(201);
      return {
        ...(await accounts.invite(project.id, request.body, actorOf(request))),
        invitedBy: actorOf(request),
      };
    },
  );

  api.delete(
    '/api/members/invites/:id',
    {
      config: { access: 'own' },
      schema: {
        tags: ['members'],
        summary: 'Withdraw an invitation: its link stops working',
        params: Type.Object({ id: RowId }),
        response: responses({ 200: Type.Object({ ok: Type.Boolean() }) }),
      },
    },
    async (request) => {
      await accounts.cancelInvite(projectOf(request).id, request.params.id);
      return { ok: true };
    },
  );

  api.patch(
    '/api/members/:accountId',
    {
      config: { access: 'own', errors: errorsOf('last_owner', 'unknown_language') },
      schema: {
        tags: ['members'],
        summary: 'Change a member’s role and languages (the last owner stays owner)',
        params: AccountParams,
        body: Type.Object(RoleFields),
        response: responses({ 200: Type.Object({ ok: Type.Boolean() }) }),
      },
    },
    async (request) => {
      const project = projectOf(request);
      await checkLanguages(project.id, request.body.role, request.body.languages);
      await accounts.changeRole(project.id, request.params.accountId, request.body);
      return { ok: true };
    },
  );

  api.delete(
    '/api/members/:accountId',
    {
      config: { access: 'own', errors: errorsOf('last_owner') },
      schema: {
        tags: ['members'],
        summary: 'Remove a member from the project (the last owner cannot be removed)',
        params: AccountParams,
        response: responses({ 200: Type.Object({ ok: Type.Boolean() }) }),
      },
    },
    async (request) => {
      await accounts.remove(projectOf(request).id, request.params.accountId);
      return { ok: true };
    },
  );
}
