import { Type } from 'typebox';
import type { Api } from '../common/api.ts';
import { Data, responses, RowId } from '../common/schemas.ts';
import { principalOf, requireAdmin } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';
import { UserSchema, UserStatusInput } from './schemas/identity.ts';
import type { UserStatus } from '../users/users-repository.ts';
import { errorsOf } from '../errors/catalogue.ts';

const Params = Type.Object({ uidNumber: RowId() });
const UserFields = {
  uid: Type.String({ minLength: 1, maxLength: 64 }),
  givenName: Type.String({ minLength: 1, maxLength: 255 }),
  sn: Type.String({ minLength: 1, maxLength: 255 }),
  mail: Type.String({ minLength: 1, maxLength: 320 }),
  userPassword: Type.Optional(Type.String({ maxLength: 1024 })),
  status: Type.Optional(UserStatusInput),
  groupIds: Type.Optional(Type.Array(RowId(), { maxItems: 1000 })),
};
const statusOf = (status: string | undefined) =>
  status === 'disabled' ? 'suspended' : (status as UserStatus | undefined);

export async function userRoutes(api: Api, services: Services) {
  const { users, accounts, mailer } = services;
  const tags = ['Users'];

  api.get(
    '/users',
    { onRequest: requireAdmin, schema: { tags, response: responses({ 200: Data(Type.Array(UserSchema)) }) } },
    async () => ({
      data: await users.list(),
    }),
  );

  api.get(
    '/users/pending/count',
    {
      onRequest: requireAdmin,
      schema: {
        tags,
        summary: 'How many accounts wait for approval (the badge of the Users page)',
        response: responses({ 200: Data(Type.Object({ count: Type.Integer() })) }),
      },
    },
    async () => ({ data: { count: await users.countWaiting() } }),
  );

  api.post(
    '/users',
    {
      onRequest: requireAdmin,
      schema: { tags, body: Type.Object(UserFields), response: responses({ 201: Data(UserSchema) }) },
    },
    async (request, reply) => {
      const body = request.body;
      const user = await users.create({
        ...body,
        uid: body.uid.trim().toLowerCase(),
        status: statusOf(body.status),
        userPassword: body.userPassword || undefined,
      });
      return reply.code(201).send({ data: user });
    },
  );

  api.get(
    '/users/:uidNumber',
    {
      onRequest: requireAdmin,
      schema: { tags, params: Params, response: responses({ 200: Data(UserSchema) }) },
    },
    async (request) => ({
      data: await users.get(request.params.uidNumber),
    }),
  );

  api.put(
    '/users/:uidNumber',
    {
      config: { errors: errorsOf('last_admin') },
      onRequest: requireAdmin,
      schema: {
        tags,
        summary:
          'Update a user; `status` approves (active) or suspends; blank password keeps it; groupIds replaces memberships; 409 last_admin when no active administrator would be left',
        params: Params,
        body: Type.Partial(Type.Object(UserFields)),
        response: responses({ 200: Data(UserSchema) }),
      },
    },
    async (request) => {
      const body = request.body;
      return {
        data: await users.update(
          request.params.uidNumber,
          {
            ...body,
            uid: body.uid?.trim().toLowerCase() || undefined,
            givenName: body.givenName || undefined,
            sn: body.sn || undefined,
            mail: body.mail || undefined,
            status: statusOf(body.status),
          },
          principalOf(request).uidNumber,
        ),
      };
    },
  );

  api.delete(
    '/users/:uidNumber',
    {
      config: { errors: errorsOf('has_containers', 'last_admin') },
      onRequest: requireAdmin,
      schema: {
        tags,
        summary:
          'Delete a user; 409 has_containers while they own containers, unless reassignTo names the user who takes them over; 409 last_admin for the last active administrator',
        params: Params,
        querystring: Type.Object({
          reassignTo: Type.Optional(
            Type.String({ minLength: 1, maxLength: 64, description: 'username of the new owner' }),
          ),
        }),
        response: responses({ 204: Type.Null() }),
      },
    },
    async (request, reply) => {
      await users.delete(request.params.uidNumber, request.query.reassignTo, principalOf(request).uidNumber);
      return reply.code(204).send(null);
    },
  );

  api.post(
    '/users/invite',
    {
      config: { errors: errorsOf('smtp_not_configured', 'smtp_error') },
      onRequest: requireAdmin,
      schema: {
        tags,
        summary:
          'Invite someone to register: mails them a link valid once, for 24 hours; 502 smtp_error when the mail server refuses it',
        description:
          'Without SMTP settings nothing is mailed: the answer carries the link as `inviteUrl` (built from ' +
          'PUBLIC_URL), shown to this administrator only and never stored or listed in plain text.',
        body: Type.Object({ email: Type.String({ minLength: 1, maxLength: 320 }) }),
        response: responses({
          200: Data(
            Type.Object({
              email: Type.String(),
              message: Type.String(),
              inviteUrl: Type.Optional(
                Type.String({ description: 'the invitation link, only when no e-mail could be sent' }),
              ),
            }),
          ),
        }),
      },
    },
    async (request) => ({ data: await accounts.invite(request.body.email.trim()) }),
  );

  api.post(
    '/users/email-all',
    {
      onRequest: requireAdmin,
      schema: {
        tags,
        summary: 'Send an announcement to every active user',
        body: Type.Object({
          subject: Type.String({ minLength: 1, maxLength: 255 }),
          message: Type.String({ minLength: 1, maxLength: 100_000 }),
        }),
        response: responses({
          200: Data(
            Type.Object({
              sent: Type.Integer(),
              failed: Type.Integer(),
              recipients: Type.Array(Type.String()),
            }),
          ),
        }),
      },
    },
    async (request) => {
      const recipients = await users.activeRecipients();
      let sent = 0;
      for (const recipient of recipients) {
        try {
          await mailer.send({
            to: recipient.mail,
            subject: request.body.subject,
            text: request.body.message,
          });
          sent += 1;
        } catch (error) {
          request.log.warn({ err: error, uid: recipient.uid }, 'announcement not delivered');
        }
      }
      return { data: { sent, failed: recipients.length - sent, recipients: recipients.map((r) => r.uid) } };
    },
  );
}
