import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../auth/principal.ts';
import type { NodeStats } from '../providers/types.ts';
import type { Node } from './nodes-service.ts';

/** What a non-admin is told in place of what a node said when it failed. */
export const NODE_FAILURE_FOR_USERS =
  'The node could not be reached or refused; an administrator can see why.';

/** A node as `viewer` may see it: addresses and token ids are for administrators (null otherwise). */
export const nodeSeenBy = (node: Node, viewer: Principal): Node =>
  viewer.isAdmin ? node : { ...node, apiUrl: null, tokenId: null };

/** Node stats as `viewer` may see them: why a node could not be asked is for administrators (and the log). */
export function statsSeenBy(
  stats: NodeStats,
  viewer: Principal,
  log: FastifyBaseLogger,
  node: string,
): NodeStats {
  if (viewer.isAdmin || stats.reason === undefined) return stats;
  log.info({ node, reason: stats.reason }, 'node stats unavailable');
  return { ...stats, reason: NODE_FAILURE_FOR_USERS };
}
