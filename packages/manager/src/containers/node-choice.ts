import type { NodesTable } from '../db/schema.ts';
import type { Selectable } from 'kysely';
import { fail } from '../errors/catalogue.ts';

type NodeRow = Selectable<NodesTable>;

/** A node the manager can create on: simulated, an engine with its host, a hypervisor with credentials. */
export function isProvisionable(node: NodeRow): boolean {
  if (node.node_type === 'dummy') return true;
  if (node.node_type === 'engine') return node.api_url !== null;
  return node.api_url !== null && node.token_id !== null && node.secret_sealed !== null;
}

/** The least-loaded provisionable node (GPU nodes only for a GPU request); ties go to the oldest node. */
export function leastLoadedNode(
  nodes: NodeRow[],
  load: Map<number, number>,
  nvidia: boolean,
): NodeRow | undefined {
  const candidates = nodes.filter((node) => isProvisionable(node) && (!nvidia || node.nvidia_available));
  if (!candidates.length) return undefined;
  return candidates.reduce((best, node) =>
    (load.get(node.id) ?? 0) < (load.get(best.id) ?? 0) ? node : best,
  );
}

/** `leastLoadedNode`, or 409 when no node of the site can take the container. */
export function chooseNode(nodes: NodeRow[], load: Map<number, number>, nvidia: boolean): NodeRow {
  const node = leastLoadedNode(nodes, load, nvidia);
  if (node) return node;
  throw nvidia
    ? fail('no_nvidia_node', 'No node of this site with NVIDIA GPUs can take a container.')
    : fail('no_node', 'No node of this site can take a container.');
}
