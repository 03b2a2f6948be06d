import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { actorOf } from '../audit/request-audit.ts';
import { rowIdOf } from '../audit/audit-details.ts';
import type { TerminalSessions } from './terminal-sessions.ts';

interface Refusal {
  code: string | null;
  message: string;
}

/**
 * The terminal route's hooks for an upgrade it answers with an HTTP error (401, 403 for a collaborator
 * or a foreign Origin, 404, 429, …): the answer says `Connection: close` (the upgrade's socket is
 * closed after it, so keep-alive would be a lie), and the refusal is a failed `container.terminal_open`
 * in the audit log with the status, code and message the caller was given. A plain GET (426) opens
 * no terminal and is not recorded.
 */
export function refusedUpgradeHooks(terminals: TerminalSessions) {
  const refusals = new WeakMap<FastifyRequest, Refusal>();
  return {
    onSend(
      request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (error: null, payload: unknown) => void,
    ) {
      if (request.ws && reply.statusCode >= 400) {
        reply.header('connection', 'close');
        refusals.set(request, refusalOf(payload));
      }
      done(null, payload);
    },
    onResponse(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
      const refusal = refusals.get(request);
      if (refusal) {
        const params = (request.params ?? {}) as { siteId?: unknown; id?: unknown };
        terminals.refused({
          actor: actorOf(request.principal),
          address: request.ip,
          target: {
            id: typeof params.id === 'string' || typeof params.id === 'number' ? params.id : null,
            siteId: rowIdOf(params.siteId),
            containerId: rowIdOf(params.id),
          },
          httpStatus: reply.statusCode,
          errorCode: refusal.code,
          reason: refusal.message,
        });
      }
      done();
    },
  };
}

function refusalOf(payload: unknown): Refusal {
  try {
    const { error } = JSON.parse(String(payload)) as { error?: { code?: unknown; message?: unknown } };
    return {
      code: typeof error?.code === 'string' ? error.code : null,
      message: typeof error?.message === 'string' ? error.message : 'refused',
    };
  } catch {
    return { code: null, message: 'refused' };
  }
}
