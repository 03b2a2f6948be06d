import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, guardWithErrors, isLocalRequest, notFound, unauthorized } from '@app/server-kit';
import { REPORT_MESSAGE_MAX } from '@app/agent/snapshot';
import type { Api } from '../common/api.ts';
import { Data, DateTime, EpochSeconds, IdParams, Nullable, responses, RowId } from '../common/schemas.ts';
import { bearerSecret, requireAdmin } from '../auth/request-auth.ts';
import {
  isAgentTokenSecret,
  type AgentTokenService,
  type SiteAgentCaller,
} from '../site-config/agent-tokens.ts';
import type { Services } from '../services.ts';
import { errorsOf } from '../errors/catalogue.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the caller authenticated with an agent token: it speaks for that site only. */
    siteAgent: SiteAgentCaller | null;
  }
}

/**
 * Agents and the proxy report with their site's agent token, from the manager host itself without
 * credentials, or anywhere with an administrator's API key. (A callback hook: on the check-in's hot
 * path only a token not seen in the last seconds has anything to await.)
 */
const agentCaller = (agentTokens: AgentTokenService) =>
  guardWithErrors(
    errorsOf('forbidden'),
    (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
      const secret = bearerSecret(request);
      if (secret !== undefined && isAgentTokenSecret(secret)) {
        agentTokens.authenticate(secret).then((caller) => {
          request.siteAgent = caller ?? null;
          done(caller ? undefined : unauthorized('The agent token is invalid or has been revoked.'));
        }, done);
        return;
      }
      if (isLocalRequest(request)) return done();
      if (!request.principal) {
        return done(
          unauthorized("Send your site's agent token (AGENT_TOKEN), or call from the manager host."),
        );
      }
      if (!request.principal.isAdmin) return done(forbidden('Only administrators can do this.'));
      done();
    },
  );

const ServiceReport = Type.Object({
  state: Type.String(),
  lastApply: Type.Union([Type.Literal('success'), Type.Literal('failure'), Type.Literal('unknown')]),
  /** Why the last apply failed, as the agent tells it (a refused value names it). */
  message: Type.Optional(Type.String({ maxLength: REPORT_MESSAGE_MAX })),
});
/** What the agent did with the volume folders of its snapshot: `done` or failed, per volume. */
const volumeResults = <Done extends 'ready' | 'removed'>(done: Done) =>
  Type.Array(
    Type.Object({
      id: RowId(),
      status: Type.Union([Type.Literal(done), Type.Literal('failed')]),
      message: Type.Optional(Nullable(Type.String())),
    }),
  );
const CertificateReport = Type.Object({
  hostname: Type.String({ minLength: 1, maxLength: 253 }),
  notAfter: Nullable(DateTime),
  /** Why the last issuance or renewal failed; null while the certificate is good. */
  lastError: Nullable(Type.String({ maxLength: REPORT_MESSAGE_MAX })),
  nextAttempt: Nullable(DateTime),
});
const CheckinBody = Type.Object({
  siteId: RowId(),
  hostname: Type.String({ minLength: 1 }),
  currentTime: Type.Optional(EpochSeconds),
  ipv4Address: Type.Optional(Nullable(Type.String())),
  services: Type.Optional(Type.Record(Type.String(), ServiceReport)),
  volumes: Type.Optional(volumeResults('ready')),
  volumeRemovals: Type.Optional(volumeResults('removed')),
  certificates: Type.Optional(Type.Array(CertificateReport, { maxItems: 10_000 })),
});
const AcmeChallengeBody = Type.Object({
  siteId: RowId(),
  /** One of the site's external domains; its `_acme-challenge` name gets the TXT records. */
  domain: Type.String({ minLength: 1, maxLength: 253 }),
  /** The DNS-01 digests (RFC 8555 §8.4: base64url SHA-256, 43 characters); none when the order is over. */
  values: Type.Array(Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }), { maxItems: 4 }),
});
const AgentRecord = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  siteName: Nullable(Type.String()),
  hostname: Type.String(),
  ipv4Address: Nullable(Type.String()),
  services: Nullable(Type.Record(Type.String(), ServiceReport)),
  lastCheckinAt: Nullable(DateTime),
  secondsSinceCheckin: Nullable(Type.Integer()),
});

export async function siteAgentRoutes(api: Api, services: Services) {
  const { agents, agentTokens, acmeDnsChallenges } = services;
  const tags = ['Agents'];
  const localAgentOrAdmin = agentCaller(agentTokens);
  api.decorateRequest('siteAgent', null);

  api.post(
    '/agents',
    {
      onRequest: localAgentOrAdmin,
      config: {
        agentToken: true,
        // Every agent posts it every few seconds: logged like a read (sampled), errors always.
        routineLog: true,
        validationError: { statusCode: 422, code: 'validation_failed' },
        errors: errorsOf('validation_failed'),
      },
      schema: {
        tags,
        summary:
          'Agent check-in: stores the agent record, answers the site snapshot with a strong ETag (304 when unchanged)',
        body: CheckinBody,
        response: {
          200: Type.Object({
            data: Type.Object({
              site: Type.Object({}, { additionalProperties: true }),
              proxy: Type.Object({}, { additionalProperties: true }),
            }),
          }),
          304: Type.Null(),
          ...responses({}),
        },
      },
    },
    async (request, reply) => {
      const answer = await agents.checkIn(
        request.body,
        request.headers['if-none-match'],
        request.siteAgent?.siteId,
      );
      reply.header('etag', answer.etag).header('cache-control', 'no-cache');
      if (answer.status === 304) return reply.code(304).send(undefined as never);
      // The snapshot is serialised once per change; send those bytes as they are.
      return reply
        .type('application/json; charset=utf-8')
        .serializer((payload) => payload as string)
        .send(answer.body as never);
    },
  );

  api.put(
    '/agents/acme-challenges',
    {
      onRequest: localAgentOrAdmin,
      config: {
        agentToken: true,
        validationError: { statusCode: 422, code: 'validation_failed' },
        errors: errorsOf('validation_failed', 'dns_challenge_unavailable', 'dns_provider_error'),
      },
      schema: {
        tags,
        summary:
          "Sets the TXT records of one of the site's external domains' `_acme-challenge` name to exactly `values` (none: removed), at the domain's DNS provider, for the agent's DNS-01 order of a wildcard certificate",
        body: AcmeChallengeBody,
        response: { 204: Type.Null(), ...responses({}) },
      },
    },
    async (request, reply) => {
      const { siteId, domain, values } = request.body;
      await acmeDnsChallenges.publish(siteId, domain, values, request.siteAgent?.siteId);
      return reply.code(204).send(null);
    },
  );

  api.get(
    '/agents',
    {
      onRequest: requireAdmin,
      schema: { tags, response: responses({ 200: Data(Type.Array(AgentRecord)) }) },
    },
    async () => ({ data: await agents.list() }),
  );

  api.post(
    '/services/:id/last-access',
    {
      onRequest: localAgentOrAdmin,
      config: { agentToken: true },
      schema: {
        tags,
        summary: 'The site proxy saw traffic: sets lastAccessedAt (written at most once per 10 minutes)',
        params: IdParams,
        response: { 204: Type.Null(), ...responses({}) },
      },
    },
    async (request, reply) => {
      if (!(await agents.touchService(request.params.id, request.siteAgent?.siteId))) {
        throw notFound('Service not found.');
      }
      return reply.code(204).send(null);
    },
  );
}
