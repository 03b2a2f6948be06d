import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { forbidden } from '@app/server-kit';
import type { Api } from '../common/api.ts';
import { responses, RowId } from '../common/schemas.ts';
import { bearerSecret, principalOf, requireUser, sessionPrincipal } from '../auth/request-auth.ts';
import type { Principal } from '../auth/principal.ts';
import type { Services } from '../services.ts';
import { errorsOf, fail } from '../errors/catalogue.ts';
import type { NodeConnection, Provider } from '../providers/types.ts';
import type { TerminalSize } from '../providers/terminal.ts';
import { TerminalBridge } from '../terminal/terminal-bridge.ts';
import { isSameOrigin } from '../terminal/same-origin.ts';
import { refusedUpgradeHooks } from '../terminal/refused-upgrade.ts';
import {
  TERMINAL_CLOSE,
  TERMINAL_PROTOCOL_SUMMARY,
  TERMINAL_SIZE_LIMITS,
} from '../terminal/terminal-protocol.ts';
import type { LiveTerminal } from '../terminal/terminal-sessions.ts';

const TerminalParams = Type.Object({ siteId: RowId(), id: RowId() });
const size = ([minimum, maximum]: readonly [number, number], fallback: number) =>
  Type.Optional(Type.Integer({ minimum, maximum, default: fallback }));
const TerminalQuery = Type.Object({
  cols: size(TERMINAL_SIZE_LIMITS.cols, 80),
  rows: size(TERMINAL_SIZE_LIMITS.rows, 24),
});

/** What the checks before the upgrade found, for the handler after it. */
interface Prepared {
  principal: Principal;
  node: NodeConnection;
  terminal: NonNullable<Provider['terminal']>;
  instance: string;
}

export async function terminalRoutes(api: Api, services: Services) {
  const { containers, nodes, providers, terminals, ctx } = services;
  const prepared = new WeakMap<FastifyRequest, Prepared>();
  api.addHook('onRequest', requireUser);

  /** The caller as they are now: the same session or key, still valid, its user still active. */
  async function principalNow(request: FastifyRequest): Promise<Principal | undefined> {
    const secret = bearerSecret(request);
    if (secret !== undefined) return services.apiKeys.authenticate(secret);
    const session = request.session && (await services.sessions.find(request.session.token));
    return session ? sessionPrincipal(session, services.users.repo) : undefined;
  }

  /** May `principal` (still) hold a shell in the container? Answers 404/403 as the container routes do. */
  async function shellOf(principal: Principal, siteId: number, id: number): Promise<Prepared> {
    const record = await containers.record(principal, siteId, id, 'manage');
    if (!record.containerId) throw fail('no_instance');
    const node = await nodes.connectionById(record.nodeId);
    const provider = providers.for(node);
    if (!provider.terminal) throw fail('conflict', 'This node type offers no terminal.');
    return { principal, node, terminal: provider.terminal.bind(provider), instance: record.containerId };
  }

  api.route({
    method: 'GET',
    url: '/sites/:siteId/containers/:id/terminal',
    config: { errors: errorsOf('forbidden', 'no_instance', 'conflict', 'websocket_required') },
    schema: {
      tags: ['Containers'],
      summary: TERMINAL_PROTOCOL_SUMMARY,
      params: TerminalParams,
      querystring: TerminalQuery,
      response: responses({
        101: Type.Null({ description: 'Switching Protocols: the terminal WebSocket (see the summary).' }),
      }),
    },
    ...refusedUpgradeHooks(terminals),
    preHandler: async (request) => {
      const principal = principalOf(request);
      // Only an upgrade can reach a shell; a plain GET learns what the container routes would say.
      const upgrade = request.headers.upgrade?.toLowerCase() === 'websocket';
      if (
        upgrade &&
        principal.via === 'session' &&
        !isSameOrigin(request.headers.origin, request.host, ctx.config.publicUrl)
      )
        throw forbidden('A terminal opens only from a page of this site (the Origin header).');
      prepared.set(request, await shellOf(principal, request.params.siteId, request.params.id));
    },
    handler: () => {
      throw fail('websocket_required');
    },
    wsHandler: async (socket, request) => {
      const { principal, node, terminal, instance } = prepared.get(request)!;
      const { siteId, id } = request.params;
      const bridge = new TerminalBridge(socket, ctx.config.containers.terminal.idleMs);
      const live: LiveTerminal = {
        uidNumber: principal.uidNumber,
        uid: principal.uid,
        apiKeyId: principal.apiKeyId ?? null,
        siteId,
        containerId: id,
        address: request.ip,
        stillAllowed: async () => {
          const now = await principalNow(request);
          return Boolean(
            now &&
            (await shellOf(now, siteId, id).then(
              () => true,
              () => false,
            )),
          );
        },
        revoke: (reason) => bridge.end(reason, TERMINAL_CLOSE.revoked),
      };
      void bridge.done.then((reason) => terminals.closed(live, reason));
      if (!terminals.admit(live)) {
        const max = ctx.config.containers.terminal.maxPerUser;
        return bridge.end(`You have ${max} terminals open already: close one first.`, TERMINAL_CLOSE.tooMany);
      }
      const controller = new AbortController();
      void bridge.done.then(() => controller.abort());
      const initial: TerminalSize = { cols: request.query.cols ?? 80, rows: request.query.rows ?? 24 };
      try {
        bridge.attach(await terminal(node, instance, initial, controller.signal));
        if (bridge.open) terminals.opened(live);
      } catch (error) {
        bridge.end(error instanceof Error ? error.message : String(error), TERMINAL_CLOSE.nodeError);
      }
    },
  });
}
