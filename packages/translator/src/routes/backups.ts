import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { TranslatorServices } from '../services.ts';
import { projectOf } from '../http/auth.ts';
import { Nullable, responses } from '../common/schemas.ts';
import { errorsOf } from '../errors/catalogue.ts';

const BackupSchema = Type.Object({ filename: Type.String(), size: Type.Integer(), created: Type.String() });
const Counts = (...names: string[]) =>
  Type.Object(Object.fromEntries(names.map((name) => [name, Type.Integer()])));
const RestorePreviewSchema = Type.Object({
  name: Type.String({ description: "The project's name in the backup" }),
  phrases: Counts('current', 'restored', 'added', 'removed'),
  translations: Counts('current', 'restored', 'added', 'removed', 'changed'),
  changes: Type.Array(
    Type.Object({
      key: Type.String(),
      lang: Type.String(),
      current: Nullable(Type.String()),
      restored: Nullable(Type.String()),
    }),
    { description: 'The first 50 translation changes' },
  ),
});
const FilenameParams = Type.Object({ filename: Type.String({ maxLength: 255 }) });
const SQLITE = 'application/vnd.sqlite3';

export function backupRoutes(app: FastifyInstance, services: TranslatorServices) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { backups } = services;

  api.get(
    '/api/backups',
    {
      config: { access: 'manage' },
      schema: {
        tags: ['backups'],
        summary: 'Backups of the project, newest first',
        response: responses({ 200: Type.Array(BackupSchema) }),
      },
    },
    async (request) => backups.list(projectOf(request).id),
  );

  api.post(
    '/api/backups',
    {
      config: { access: 'manage' },
      schema: {
        tags: ['backups'],
        summary:
          'Make a backup now: one per project per TRANSLATOR_BACKUP_MANUAL_INTERVAL_S (else 429), the newest ' +
          'TRANSLATOR_BACKUP_MANUAL_KEEP manual backups are kept',
        response: responses({ 201: BackupSchema }),
      },
    },
    async (request, reply) => reply.code(201).send(await backups.createManual(projectOf(request).id)),
  );

  api.get(
    '/api/backups/:filename',
    {
      config: { access: 'manage', errors: errorsOf('invalid_filename') },
      schema: {
        tags: ['backups'],
        summary: 'Download a stored backup (extension to the spec)',
        params: FilenameParams,
        produces: [SQLITE],
      },
    },
    async (request, reply) => {
      const { filename } = request.params;
      const { stream, size } = await backups.open(projectOf(request).id, filename);
      return sendSqlite(reply.header('content-length', size), stream, filename);
    },
  );

  api.post(
    '/api/backups/:filename/restore',
    {
      config: { access: 'own', errors: errorsOf('invalid_filename', 'invalid_backup') },
      schema: {
        tags: ['backups'],
        summary:
          'Restore a backup over the project (its keys stay): what it changes; dryRun=true only reports (extension to the spec)',
        params: FilenameParams,
        querystring: Type.Object({ dryRun: Type.Optional(Type.Boolean()) }),
        response: responses({ 200: RestorePreviewSchema }),
      },
    },
    async (request) =>
      backups.restore(projectOf(request).id, request.params.filename, request.query.dryRun ?? false),
  );

  // The file is the body, whatever type the client names, streamed to disk: in this scope only.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.withTypeProvider<TypeBoxTypeProvider>().post(
      '/api/backups/upload',
      {
        config: { access: 'own', errors: errorsOf('invalid_backup') },
        schema: {
          tags: ['backups'],
          summary:
            'Upload a backup file of this project (the body); it is kept as a manual backup to preview and restore (extension to the spec)',
          response: responses({ 201: BackupSchema }),
        },
      },
      async (request, reply) => {
        // No body at all (no content type): an empty file, which the check refuses.
        const body = (request.body as Readable | undefined) ?? Readable.from([]);
        try {
          return reply.code(201).send(await backups.upload(projectOf(request).id, body));
        } catch (error) {
          // The rest of a refused body may still be on its way: the connection is not reused.
          reply.header('connection', 'close');
          throw error;
        }
      },
    );
  });

  api.delete(
    '/api/backups/:filename',
    {
      config: { access: 'own', errors: errorsOf('invalid_filename') },
      schema: {
        tags: ['backups'],
        summary: 'Delete a backup',
        params: FilenameParams,
        response: responses({ 200: Type.Object({ ok: Type.Boolean() }) }),
      },
    },
    async (request) => {
      await backups.delete(projectOf(request).id, request.params.filename);
      return { ok: true };
    },
  );

  api.get(
    '/api/backup',
    {
      config: { access: 'manage' },
      schema: {
        tags: ['backups'],
        summary: 'Download a consistent snapshot of the project’s data as a SQLite file',
        produces: [SQLITE],
      },
    },
    async (request, reply) => {
      const { path, filename } = await backups.snapshotFile(projectOf(request).id);
      const stream = createReadStream(path);
      stream.on('close', () => void rm(path, { force: true }));
      return sendSqlite(reply, stream, filename);
    },
  );
}

/** A SQLite file as an attachment (the filename is a checked backup name: no quotes to escape). */
function sendSqlite(reply: FastifyReply, stream: Readable, filename: string) {
  return reply
    .type(SQLITE)
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(stream);
}
