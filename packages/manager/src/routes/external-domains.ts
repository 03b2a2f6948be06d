import { Type, type Static } from 'typebox';
import type { Api } from '../common/api.ts';
import { Data, DateTime, IdParams, Nullable, responses, RowId } from '../common/schemas.ts';
import { requireAdmin } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';
import type { ExternalDomainInput } from '../external-domains/external-domains-service.ts';
import { errorsOf } from '../errors/catalogue.ts';

const ExternalDomainSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  acmeEmail: Nullable(Type.String()),
  acmeDirectoryUrl: Nullable(Type.String()),
  dnsProviderApiEmail: Nullable(Type.String()),
  siteId: Nullable(Type.Integer()),
  site: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
  authServer: Nullable(Type.String()),
  hasDnsProviderApiKey: Type.Boolean(),
});

const CertificateSchema = Type.Object({
  hostname: Type.String(),
  siteId: Type.Integer(),
  siteName: Type.String(),
  notAfter: Nullable(DateTime),
  lastError: Nullable(Type.String()),
  nextAttempt: Nullable(DateTime),
  /** When the site's agent last reported a change of this certificate. */
  reportedAt: DateTime,
});

const optionalText = Type.Optional(Nullable(Type.String()));
const Input = Type.Object({
  name: Type.String({ minLength: 1 }),
  acmeEmail: optionalText,
  acmeDirectoryUrl: optionalText,
  dnsProviderApiEmail: optionalText,
  dnsProviderApiKey: optionalText,
  // Null first: with type coercion on, null would otherwise become the integer 0.
  siteId: Type.Optional(Type.Union([Type.Null(), RowId(), Type.Literal('')])),
  authServer: optionalText,
  // The original system's names for the DNS provider credentials.
  cloudflareApiEmail: optionalText,
  cloudflareApiKey: optionalText,
});

type Body = Static<typeof Input>;
const toInput = ({ cloudflareApiEmail, cloudflareApiKey, siteId, ...body }: Body): ExternalDomainInput => ({
  ...body,
  dnsProviderApiEmail: body.dnsProviderApiEmail ?? cloudflareApiEmail,
  dnsProviderApiKey: body.dnsProviderApiKey ?? cloudflareApiKey,
  siteId: siteId === '' ? null : siteId,
});

export async function externalDomainRoutes(api: Api, services: Services) {
  const { externalDomains, certificates } = services;
  const tags = ['External Domains'];

  api.get(
    '/external-domains',
    {
      onRequest: requireAdmin,
      schema: { tags, response: responses({ 200: Data(Type.Array(ExternalDomainSchema)) }) },
    },
    async () => ({
      data: await externalDomains.list(),
    }),
  );
  api.post(
    '/external-domains',
    {
      onRequest: requireAdmin,
      schema: { tags, body: Input, response: responses({ 201: Data(ExternalDomainSchema) }) },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await externalDomains.create(toInput(request.body)) }),
  );
  api.get(
    '/external-domains/:id',
    {
      onRequest: requireAdmin,
      schema: { tags, params: IdParams, response: responses({ 200: Data(ExternalDomainSchema) }) },
    },
    async (request) => ({
      data: await externalDomains.get(request.params.id),
    }),
  );
  api.get(
    '/external-domains/:id/certificates',
    {
      onRequest: requireAdmin,
      schema: {
        tags,
        summary: "The ACME certificates of the domain's HTTP services, as the site agents report them",
        params: IdParams,
        response: responses({ 200: Data(Type.Array(CertificateSchema)) }),
      },
    },
    async (request) => {
      await externalDomains.get(request.params.id);
      return { data: await certificates.ofDomain(request.params.id) };
    },
  );
  api.put(
    '/external-domains/:id',
    {
      onRequest: requireAdmin,
      schema: {
        tags,
        summary: 'Full update; the DNS provider key is kept when blank or omitted',
        params: IdParams,
        body: Input,
        response: responses({ 200: Data(ExternalDomainSchema) }),
      },
    },
    async (request) => ({ data: await externalDomains.update(request.params.id, toInput(request.body)) }),
  );
  api.delete(
    '/external-domains/:id',
    {
      config: { errors: errorsOf('in_use') },
      onRequest: requireAdmin,
      schema: { tags, params: IdParams, response: responses({ 204: Type.Null() }) },
    },
    async (request, reply) => {
      await externalDomains.delete(request.params.id);
      return reply.code(204).send(null);
    },
  );
}
