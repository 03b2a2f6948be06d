import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { TranslatorServices } from '../services.ts';
import { actorOf, projectOf } from '../http/auth.ts';
import { LangCode, Nullable, responses } from '../common/schemas.ts';
import { errorsOf } from '../errors/catalogue.ts';

/** Largest file an import reads: 100,000 phrases of XLIFF fit. */
const FILE_LIMIT = 64 * 1024 * 1024;

const FormatQuery = Type.Union(
  [
    Type.Literal('xliff12'),
    Type.Literal('xliff20'),
    Type.Literal('po'),
    Type.Literal('csv'),
    Type.Literal('json'),
    Type.Literal('json-nested'),
  ],
  { description: 'xliff12, xliff20, po (gettext), csv, json (flat), json-nested (by context)' },
);
const FileParams = Type.Object({ lang: LangCode });

const ImportReportSchema = Type.Object({
  format: FormatQuery,
  lang: Type.String(),
  dryRun: Type.Boolean(),
  units: Type.Integer({ description: 'Units in the file' }),
  changed: Type.Integer({ description: 'Translations written (created + updated)' }),
  created: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer({ description: 'Units whose translation is already the stored one' }),
  skipped: Type.Integer({ description: 'Units without a translation or marked unfinished (fuzzy, initial)' }),
  unknown: Type.Integer({ description: 'Units naming no phrase of the project (left out)' }),
  changes: Type.Array(
    Type.Object({
      phraseId: Type.Integer(),
      key: Type.String(),
      context: Type.String(),
      old: Nullable(Type.String()),
      new: Type.String(),
    }),
    { description: 'The first 200 changes' },
  ),
  unknownUnits: Type.Array(Type.Object({ key: Type.String(), context: Type.String() }), {
    description: 'The first 200 units naming no phrase',
  }),
});

/** Translation files for CAT tools and code: export, and import with a dry run (extension to the spec). */
export function fileRoutes(app: FastifyInstance, services: TranslatorServices) {
  const { files, projects } = services;

  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/files/:lang',
    {
      config: { errors: errorsOf([404, 'unknown_language']) },
      schema: {
        tags: ['languages'],
        summary:
          'Every phrase not in the trash with its translation into lang, as a file for translators (extension to the spec)',
        params: FileParams,
        querystring: Type.Object({
          format: FormatQuery,
          /** The pages' own language, which XLIFF and PO name (default en). */
          sourceLang: Type.Optional(LangCode),
        }),
        produces: ['application/xliff+xml', 'text/x-gettext-translation', 'text/csv', 'application/json'],
      },
    },
    async (request, reply) => {
      const project = await projects.get(projectOf(request).id);
      const file = await files.export(
        project,
        await projects.settings(project.id),
        request.params.lang,
        request.query.format,
        request.query.sourceLang ?? 'en',
      );
      return reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="${file.name}"`)
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );

  // The file is the body, whatever type the client names: read as text in this scope only.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: FILE_LIMIT }, (_request, body, done) =>
      done(null, body),
    );
    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      '/api/files/:lang',
      {
        bodyLimit: FILE_LIMIT,
        config: {
          access: 'translate',
          errors: errorsOf('unknown_language', 'invalid_file', 'slot_mismatch'),
        },
        schema: {
          tags: ['languages'],
          summary:
            'Import a translation file into lang: all or nothing, slots checked; dryRun=true reports without writing (extension to the spec)',
          params: FileParams,
          querystring: Type.Object({ format: FormatQuery, dryRun: Type.Optional(Type.Boolean()) }),
          body: Type.String({ description: 'The file, as text (UTF-8)' }),
          response: responses({ 200: ImportReportSchema }),
        },
      },
      async (request) => {
        const project = projectOf(request);
        return files.import(
          project.id,
          await projects.settings(project.id),
          request.params.lang,
          request.query.format,
          request.body,
          { dryRun: request.query.dryRun ?? false, actor: actorOf(request) },
        );
      },
    );
  });
}
