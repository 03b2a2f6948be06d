import { Type } from 'typebox';
import type { Api } from '../common/api.ts';
import { Data, responses, RowId, SiteParams } from '../common/schemas.ts';
import { principalOf, requireAdmin, requireUser } from '../auth/request-auth.ts';
import type { Services } from '../services.ts';
import type { NodeInput } from '../nodes/nodes-service.ts';
import { nodeSeenBy, statsSeenBy } from '../nodes/node-visibility.ts';
import {
  ImportInputSchema,
  NodeInputSchema,
  NodeSchema,
  NodeStatsSchema,
  NodeSchema as ImportedNode,
  StorageSchema,
} from './schemas/fleet.ts';
import { errorsOf } from '../errors/catalogue.ts';

const NodeParams = Type.Object({ siteId: RowId(), id: RowId() });

/** Blank strings in optional fields mean "not given" (real forms send them). */
function blankless(body: NodeInput): NodeInput {
  const cleaned: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    cleaned[key] = typeof value === 'string' && key !== 'name' ? value.trim() || undefined : value;
  }
  return cleaned as unknown as NodeInput;
}

export async function nodeRoutes(api: Api, services: Services) {
  const { nodes, providers, nodeImport } = services;
  const tags = ['Nodes'];

  api.get(
    '/sites/:siteId/nodes',
    {
      config: { errors: errorsOf('site_not_found') },
      onRequest: requireUser,
      schema: { tags, params: SiteParams, response: responses({ 200: Data(Type.Array(NodeSchema)) }) },
    },
    async (request) => ({
      data: (await nodes.list(request.params.siteId)).map((node) => nodeSeenBy(node, principalOf(request))),
    }),
  );

  api.post(
    '/sites/:siteId/nodes',
    {
      config: { errors: errorsOf('invalid_node_type', 'invalid_engine_host') },
      onRequest: requireAdmin,
      schema: {
        tags,
        params: SiteParams,
        body: NodeInputSchema,
        response: responses({ 201: Data(NodeSchema) }),
      },
    },
    async (request, reply) =>
      reply.code(201).send({ data: await nodes.create(request.params.siteId, blankless(request.body)) }),
  );

  api.post(
    '/sites/:siteId/nodes/test',
    {
      config: { errors: errorsOf('invalid_node_type', 'invalid_engine_host') },
      onRequest: requireAdmin,
      schema: {
        tags,
        summary:
          "Try a node's connection before saving it: its live usage, or available false with the node's answer; nodeId reuses a saved node's secret when the form leaves it blank",
        params: SiteParams,
        body: Type.Intersect([NodeInputSchema, Type.Object({ nodeId: Type.Optional(RowId()) })]),
        response: responses({ 200: Data(NodeStatsSchema) }),
      },
    },
    async (request) => {
      const { nodeId, ...input } = request.body;
      const node = await nodes.draft(request.params.siteId, blankless(input), nodeId);
      return { data: await providers.stats(node) };
    },
  );

  api.post(
    '/sites/:siteId/nodes/import',
    {
      config: { errors: errorsOf('import_failed') },
      onRequest: requireAdmin,
      schema: {
        tags,
        summary: 'Log in to a Proxmox VE cluster, create its nodes and import their containers',
        params: SiteParams,
        body: ImportInputSchema,
        response: responses({
          201: Data(Type.Object({ nodes: Type.Array(ImportedNode), importedContainerCount: Type.Integer() })),
        }),
      },
    },
    async (request, reply) =>
      reply.code(201).send({
        data: await nodeImport.import(request.params.siteId, request.body, principalOf(request).uidNumber),
      }),
  );

  api.get(
    '/sites/:siteId/nodes/:id',
    {
      onRequest: requireUser,
      schema: { tags, params: NodeParams, response: responses({ 200: Data(NodeSchema) }) },
    },
    async (request) => ({
      data: nodeSeenBy(await nodes.get(request.params.siteId, request.params.id), principalOf(request)),
    }),
  );

  api.put(
    '/sites/:siteId/nodes/:id',
    {
      config: { errors: errorsOf('invalid_node_type', 'invalid_engine_host') },
      onRequest: requireAdmin,
      schema: {
        tags,
        summary: 'Full update: omitted fields reset to defaults; nodeType and a blank secret are kept',
        params: NodeParams,
        body: NodeInputSchema,
        response: responses({ 200: Data(NodeSchema) }),
      },
    },
    async (request) => ({
      data: await nodes.update(request.params.siteId, request.params.id, blankless(request.body)),
    }),
  );

  api.delete(
    '/sites/:siteId/nodes/:id',
    {
      config: { errors: errorsOf('has_containers') },
      onRequest: requireAdmin,
      schema: { tags, params: NodeParams, response: responses({ 204: Type.Null() }) },
    },
    async (request, reply) => {
      await nodes.delete(request.params.siteId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  api.get(
    '/sites/:siteId/nodes/:id/storages',
    {
      config: { errors: errorsOf('site_not_found') },
      onRequest: requireUser,
      schema: {
        tags,
        summary: 'Template storages; empty when the node cannot be asked',
        params: NodeParams,
        response: responses({ 200: Data(Type.Array(StorageSchema)) }),
      },
    },
    async (request) => ({
      data: await providers.storages(await nodes.connection(request.params.siteId, request.params.id)),
    }),
  );

  api.get(
    '/sites/:siteId/nodes/:id/stats',
    {
      onRequest: requireUser,
      schema: {
        tags,
        summary:
          'Live node usage; available is false when it cannot be asked (reason: the detail for administrators, a generic sentence for others)',
        params: NodeParams,
        response: responses({ 200: Data(NodeStatsSchema) }),
      },
    },
    async (request) => {
      const node = await nodes.connection(request.params.siteId, request.params.id);
      return { data: statsSeenBy(await providers.stats(node), principalOf(request), request.log, node.name) };
    },
  );
}
