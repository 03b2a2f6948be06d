import { Type } from 'typebox';
import type { Api } from '../common/api.ts';
import { Data, DateTime, Nullable, responses, RowId, SiteParams } from '../common/schemas.ts';
import { requireAdmin } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';
import { errorsOf } from '../errors/catalogue.ts';

const KeptVolumeSchema = Type.Object({
  id: Type.Integer(),
  siteId: Type.Integer(),
  hostname: Type.String({ description: 'of the deleted container' }),
  name: Type.String(),
  hostPath: Type.String(),
  mountPath: Type.String(),
  keptAt: DateTime,
  status: Type.Union([Type.Literal('kept'), Type.Literal('removing'), Type.Literal('remove_failed')], {
    description:
      'removing: the site agent deletes the folder at its next check-in; remove_failed: see statusMessage',
  }),
  statusMessage: Nullable(Type.String()),
});
const KeptVolumeParams = Type.Object({ siteId: RowId(), id: RowId() });

/** The volume folders of deleted containers (admins): listed, and removed by the site agent on request. */
export async function keptVolumeRoutes(api: Api, services: Services) {
  const { keptVolumes } = services;
  const tags = ['Volumes'];

  api.get(
    '/sites/:siteId/kept-volumes',
    {
      onRequest: requireAdmin,
      config: { errors: errorsOf('site_not_found') },
      schema: {
        tags,
        summary: "The site's volume folders kept from deleted containers",
        params: SiteParams,
        response: responses({ 200: Data(Type.Array(KeptVolumeSchema)) }),
      },
    },
    async (request) => ({ data: await keptVolumes.list(request.params.siteId) }),
  );

  api.delete(
    '/sites/:siteId/kept-volumes/:id',
    {
      onRequest: requireAdmin,
      config: { errors: errorsOf('site_not_found', 'not_found', 'path_not_removable', 'volume_in_use') },
      schema: {
        tags,
        summary:
          'Remove a kept volume folder with its data: the site agent deletes it at its next check-in, then it leaves this list',
        params: KeptVolumeParams,
        response: responses({ 202: Data(KeptVolumeSchema) }),
      },
    },
    async (request, reply) =>
      reply.code(202).send({ data: await keptVolumes.remove(request.params.siteId, request.params.id) }),
  );
}
