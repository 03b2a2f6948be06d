import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { TranslatorServices } from '../services.ts';
import { projectOf } from '../http/auth.ts';
import { responses } from '../common/schemas.ts';

const BackupSchema = Type.Object({ filename: Type.String(), size: Type.Integer(), created: Type.String() });

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
      schema: { tags: ['backups'], summary: 'Make a backup now', response: responses({ 201: BackupSchema }) },
    },
    async (request, reply) => reply.code(201).send(await backups.create(projectOf(request).id)),
  );

  api.delete(
    '/api/backups/:filename',
    {
      schema: {
        tags: ['backups'],
        summary: 'Delete a backup',
        params: Type.Object({ filename: Type.String({ maxLength: 255 }) }),
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
        produces: ['application/vnd.sqlite3'],
      },
    },
    async (request, reply) => {
      const { path, filename } = await backups.snapshotFile(projectOf(request).id);
      const stream = createReadStream(path);
      stream.on('close', () => void rm(path, { force: true }));
      return reply
        .type('application/vnd.sqlite3')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );
}
