import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { TranslatorServices } from '../services.ts';
import { projectOf } from '../http/auth.ts';
import { responses } from '../common/schemas.ts';
import { errorsOf } from '../errors/catalogue.ts';

const BackupSchema = Type.Object({ filename: Type.String(), size: Type.Integer(), created: Type.String() });
const FilenameParams = Type.Object({ filename: Type.String({ maxLength: 255 }) });
const SQLITE = 'application/vnd.sqlite3';

export function backupRoutes(app: FastifyInstance, services: TranslatorServices) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { backups } = services;

  api.get(
    '/api/backups',
    {
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
      config: { errors: errorsOf('invalid_filename') },
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

  api.delete(
    '/api/backups/:filename',
    {
      config: { errors: errorsOf('invalid_filename') },
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
