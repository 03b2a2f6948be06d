import type { FakeReply, FakeRequest } from '../shared/types.ts';
import type { AuthIdentity, PveAuth } from './auth.ts';
import { unreachableNodeError } from './errors.ts';
import type { OciTemplateConfig } from './lxc-create.ts';
import type { PveNode, PveState } from './state.ts';
import type { TaskRunner } from './tasks.ts';
import type { TermProxies } from './termproxy.ts';

export const API = '/api2/json';

/** What the route modules share. */
export interface PveContext {
  state: PveState;
  tasks: TaskRunner;
  termproxies: TermProxies;
  auth: PveAuth;
  ociTemplates: Map<string, OciTemplateConfig>;
  version: { version: string; release: string; repoid: string };
  /** SHA-256 fingerprint of the served certificate (`ssl_fingerprint` in `/nodes`). */
  fingerprint: string;
  /** PVE 9.1+: OCI templates, `env`, `entrypoint`, `oci-registry-pull`. */
  oci: boolean;
  identities: WeakMap<FakeRequest, AuthIdentity>;
  /** The request's parameters, checked against the PVE API schema and typed (numbers for integers and booleans). */
  params: (req: FakeRequest) => Record<string, string | number>;
}

export function identity(ctx: PveContext, req: FakeRequest): AuthIdentity {
  return ctx.identities.get(req) ?? { user: 'root@pam', via: 'ticket' };
}

/** The node named in the path; offline members answer 595 like a failed proxy call. */
export function onlineNode(ctx: PveContext, req: FakeRequest): PveNode {
  const node = ctx.state.node(req.params.node!);
  if (!node.online) throw unreachableNodeError();
  return node;
}

export function ok(data: unknown, extra: Record<string, unknown> = {}): FakeReply {
  return {
    status: 200,
    headers: { 'content-type': 'application/json;charset=UTF-8' },
    body: JSON.stringify({ data: data ?? null, ...extra }),
  };
}
