import type { Selectable } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { NodesTable } from '../db/schema.ts';
import { chooseNode, isProvisionable } from './node-choice.ts';

type NodeRow = Selectable<NodesTable>;

const node = (id: number, change: Partial<NodeRow> = {}): NodeRow => ({
  id,
  name: `node-${id}`,
  node_type: 'hypervisor',
  site_id: 1,
  ipv4_address: null,
  api_url: 'https://pve.example:8006',
  token_id: 'root@pam!manager',
  secret_sealed: 'sealed',
  tls_verify: 1,
  tls_fingerprint: null,
  image_storage: 'local',
  volume_storage: 'local-lvm',
  network_bridge: 'vmbr0',
  nvidia_available: 0,
  volume_id_shift: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  ...change,
});

describe('node choice', () => {
  it('creates on a hypervisor only with its credentials, on an engine with its address, always on a dummy', () => {
    expect(isProvisionable(node(1))).toBe(true);
    expect(isProvisionable(node(1, { secret_sealed: null }))).toBe(false);
    expect(isProvisionable(node(1, { node_type: 'engine', token_id: null, secret_sealed: null }))).toBe(true);
    expect(isProvisionable(node(1, { node_type: 'engine', api_url: null }))).toBe(false);
    expect(isProvisionable(node(1, { node_type: 'dummy', api_url: null, token_id: null }))).toBe(true);
  });

  it('picks the least-loaded provisionable node, the oldest on a tie', () => {
    const nodes = [node(1), node(2), node(3, { api_url: null })];
    expect(
      chooseNode(
        nodes,
        new Map([
          [1, 3],
          [2, 1],
          [3, 0],
        ]),
        false,
      ).id,
    ).toBe(2);
    expect(
      chooseNode(
        nodes,
        new Map([
          [1, 2],
          [2, 2],
        ]),
        false,
      ).id,
    ).toBe(1);
    expect(chooseNode(nodes, new Map(), false).id).toBe(1);
  });

  it('puts a GPU container on a GPU node only', () => {
    const nodes = [node(1), node(2, { nvidia_available: 1 })];
    expect(chooseNode(nodes, new Map([[2, 10]]), true).id).toBe(2);
  });

  it('answers 409 no_node, or no_nvidia_node for a GPU request, when no node can take the container', () => {
    expect(() => chooseNode([node(1, { api_url: null })], new Map(), false)).toThrow(
      expect.objectContaining({ statusCode: 409, code: 'no_node' }),
    );
    expect(() => chooseNode([node(1)], new Map(), true)).toThrow(
      expect.objectContaining({ statusCode: 409, code: 'no_nvidia_node' }),
    );
  });
});
