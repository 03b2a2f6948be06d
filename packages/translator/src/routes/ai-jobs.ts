import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { TranslatorServices } from '../services.ts';
import { projectOf } from '../http/auth.ts';
import { languageScope } from '../http/session-auth.ts';
import { LangCode, Nullable, responses, RowId } from '../common/schemas.ts';
import { errorsOf } from '../errors/catalogue.ts';

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const Uuid = Type.String({ pattern: UUID });

const JobSchema = Type.Object({
  id: Type.String(),
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('running'),
    Type.Literal('completed'),
    Type.Literal('failed'),
    Type.Literal('cancelled'),
  ]),
  lang: Type.String(),
  promptId: Nullable(Type.String()),
  total: Type.Integer(),
  completed: Type.Integer(),
  failed: Type.Integer(),
  estimatedTimeRemaining: Type.Integer({ description: 'seconds' }),
  includeScreenshots: Type.Boolean(),
  memory: Type.Object({ filled: Type.Integer(), savedCharacters: Type.Integer() }),
  error: Nullable(Type.String()),
  createdAt: Type.String(),
  startedAt: Nullable(Type.String()),
  finishedAt: Nullable(Type.String()),
});

const PromptSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  text: Type.String(),
  isDefault: Type.Boolean(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export function aiRoutes(app: FastifyInstance, services: TranslatorServices) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { aiJobs, prompts } = services;
  const { streams } = services.aiEngine;
  /** A job's language, so a translator or reviewer reads only the jobs of their languages. */
  const jobLanguage = async (request: FastifyRequest) => [
    (await aiJobs.get(projectOf(request).id, (request.params as { jobId: string }).jobId)).lang,
  ];
  // Open streams must not keep the server from closing.
  app.addHook('preClose', async () => streams.closeAll());

  api.post(
    '/api/ai-jobs',
    {
      config: {
        errors: errorsOf('unknown_language', 'provider_not_configured', 'unknown_prompt', 'unknown_phrase'),
      },
      schema: {
        tags: ['ai'],
        summary: 'Start an AI translation job',
        body: Type.Object({
          key_ids: Type.Array(RowId, { minItems: 1, maxItems: 50_000 }),
          lang: LangCode,
          prompt_id: Type.Optional(Uuid),
          include_screenshots: Type.Optional(Type.Boolean()),
        }),
        response: responses({ 202: Type.Object({ jobId: Type.String(), total: Type.Integer() }) }),
      },
    },
    async (request, reply) => {
      const { key_ids, lang, prompt_id, include_screenshots } = request.body;
      const created = await aiJobs.create(projectOf(request).id, {
        keyIds: key_ids,
        lang,
        promptId: prompt_id,
        includeScreenshots: include_screenshots,
      });
      return reply.code(202).send(created);
    },
  );

  api.get(
    '/api/ai-jobs',
    {
      schema: {
        tags: ['ai'],
        summary: 'Active (pending and running) jobs (a translator’s or reviewer’s: of their languages)',
        response: responses({
          200: Type.Object({
            jobs: Type.Array(JobSchema),
            stats: Type.Object({ running: Type.Integer(), pending: Type.Integer(), total: Type.Integer() }),
          }),
        }),
      },
    },
    async (request) => aiJobs.active(projectOf(request).id, languageScope(request)),
  );

  api.get(
    '/api/ai-jobs/log',
    {
      schema: {
        tags: ['ai'],
        summary: 'The last 50 finished jobs (a translator’s or reviewer’s: of their languages)',
        response: responses({ 200: Type.Array(JobSchema) }),
      },
    },
    async (request) => aiJobs.log(projectOf(request).id, languageScope(request)),
  );

  api.get(
    '/api/ai-jobs/:jobId',
    {
      config: { langsOf: jobLanguage },
      schema: {
        tags: ['ai'],
        summary: 'One job with its progress',
        params: Type.Object({ jobId: Uuid }),
        response: responses({ 200: JobSchema }),
      },
    },
    async (request) => aiJobs.get(projectOf(request).id, request.params.jobId),
  );

  api.get(
    '/api/ai-jobs/:jobId/events',
    {
      config: { errors: errorsOf('too_many_streams'), langsOf: jobLanguage },
      schema: {
        tags: ['ai'],
        summary:
          'Server-sent events: `progress` {total, completed, failed} now and after every batch, then one ' +
          '`status` {status} when the job ends',
        description:
          'Keep-alive comments every 15 s. 429 too_many_streams when the project (20) or the server (2000) ' +
          'has too many streams open.',
        params: Type.Object({ jobId: Uuid }),
        produces: ['text/event-stream'],
      },
    },
    async (request, reply) => {
      const project = projectOf(request).id;
      await aiJobs.get(project, request.params.jobId);
      const place = streams.reserve(project);
      reply.hijack();
      await streams.stream(request.params.jobId, 0, reply.raw, place);
      return reply;
    },
  );

  api.delete(
    '/api/ai-jobs/:jobId',
    {
      config: { errors: errorsOf('job_finished') },
      schema: {
        tags: ['ai'],
        summary: 'Cancel a pending or running job',
        params: Type.Object({ jobId: Uuid }),
        response: responses({ 200: JobSchema }),
      },
    },
    async (request) => aiJobs.cancel(projectOf(request).id, request.params.jobId),
  );

  api.get(
    '/api/prompts',
    {
      schema: {
        tags: ['ai'],
        summary: 'Prompts, the default first',
        response: responses({ 200: Type.Array(PromptSchema) }),
      },
    },
    async (request) => prompts.list(projectOf(request).id),
  );

  const PromptBody = {
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' }),
    text: Type.String({ minLength: 1, maxLength: 20_000, pattern: '\\S' }),
    isDefault: Type.Optional(Type.Boolean()),
  };

  api.post(
    '/api/prompts',
    {
      schema: {
        tags: ['ai'],
        summary: 'Add a prompt',
        body: Type.Object(PromptBody),
        response: responses({ 201: PromptSchema }),
      },
    },
    async (request, reply) => reply.code(201).send(await prompts.create(projectOf(request).id, request.body)),
  );

  api.put(
    '/api/prompts/:id',
    {
      config: { errors: errorsOf('default_prompt') },
      schema: {
        tags: ['ai'],
        summary: 'Change a prompt (any of name, text, isDefault)',
        params: Type.Object({ id: Uuid }),
        body: Type.Object({
          name: Type.Optional(PromptBody.name),
          text: Type.Optional(PromptBody.text),
          isDefault: Type.Optional(Type.Boolean()),
        }),
        response: responses({ 200: PromptSchema }),
      },
    },
    async (request) => prompts.update(projectOf(request).id, request.params.id, request.body),
  );

  api.delete(
    '/api/prompts/:id',
    {
      config: { errors: errorsOf('default_prompt') },
      schema: {
        tags: ['ai'],
        summary: 'Delete a prompt (not the default one)',
        params: Type.Object({ id: Uuid }),
        response: responses({ 200: Type.Object({ ok: Type.Boolean() }) }),
      },
    },
    async (request) => {
      await prompts.delete(projectOf(request).id, request.params.id);
      return { ok: true };
    },
  );
}
