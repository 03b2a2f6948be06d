import { Agent, type AgentOptions, type RequestOptions } from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { neverAllowedReason, refusedAddressReason } from './address-policy.ts';
import { hostRefusalReason, RefusedAddressError, refusingLookup } from './guarded-connector.ts';
import { effectivePort, type HostAllowlist } from './host-allowlist.ts';

export interface GuardedHttpsAgentOptions extends AgentOptions {
  /** Hosts that may be loopback or private addresses (never link-local or cloud metadata). */
  allowlist: HostAllowlist;
}

const unbracket = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

/**
 * A node:https Agent held to the outbound policy, for libraries that speak node:http(s) (acme-client's
 * axios) where the undici guard cannot go: every connection's address is judged after resolution —
 * loopback, private, CGNAT and other internal addresses refused unless the allowlist names the host,
 * link-local and cloud-metadata addresses refused always — so a name that resolves elsewhere later
 * (DNS rebinding) is judged again. HTTPS only: it carries no plain HTTP.
 */
export class GuardedHttpsAgent extends Agent {
  private readonly allowlist: HostAllowlist;

  constructor({ allowlist, ...options }: GuardedHttpsAgentOptions) {
    super(options);
    this.allowlist = allowlist;
  }

  /** Why a call to `target` would be refused now (its scheme, its address after resolution), or undefined. */
  async refusal(target: string | URL): Promise<string | undefined> {
    const url = new URL(target);
    if (url.protocol !== 'https:') return `${url.protocol}//${url.host} is not allowed (https only)`;
    const host = unbracket(url.hostname);
    const reasonOf = this.reasonOf(host, effectivePort(url));
    if (isIP(host)) {
      const reason = reasonOf(host);
      return reason && `${host} is ${reason}`;
    }
    return reasonOf === refusedAddressReason ? hostRefusalReason(host) : undefined;
  }

  override createConnection(
    options: RequestOptions,
    callback?: (error: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const host = unbracket(options.host ?? options.hostname ?? 'localhost');
    const reasonOf = this.reasonOf(host, Number(options.port) || 443);
    const reason = isIP(host) ? reasonOf(host) : undefined;
    if (reason) {
      callback?.(new RefusedAddressError(`${host} is ${reason}`), undefined as unknown as Duplex);
      return undefined;
    }
    return super.createConnection({ ...options, lookup: refusingLookup(reasonOf) }, callback);
  }

  private reasonOf(host: string, port: number) {
    return this.allowlist.allows(host, port) ? neverAllowedReason : refusedAddressReason;
  }
}
