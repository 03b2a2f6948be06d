import {
  lookup,
  promises as dns,
  type LookupAddress,
  type LookupAllOptions,
  type LookupOptions,
} from 'node:dns';
import { isIP } from 'node:net';
import type { buildConnector } from 'undici';
import { refusedAddressReason } from './address-policy.ts';
import type { HostAllowlist } from './host-allowlist.ts';
import { loadUndici } from './undici.ts';

/** A connection the guard refused: the target is (or resolves to) an address users may not reach. */
export class RefusedAddressError extends Error {
  readonly code = 'E_REFUSED_ADDRESS';
  override name = 'RefusedAddressError';
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * `dns.lookup` that fails when any address of the name is refused (by `reasonOf`): net.connect calls
 * it at connect time and connects to what it returns, so a name that resolves elsewhere on the next
 * lookup (DNS rebinding) is judged again on every connection.
 */
function guardedLookup(
  hostname: string,
  options: LookupOptions,
  callback: LookupCallback,
  reasonOf: (address: string) => string | undefined = refusedAddressReason,
) {
  lookup(hostname, { ...options, all: true } as LookupAllOptions, (error, addresses) => {
    if (error) return callback(error, '');
    const refused = addresses.find((entry) => reasonOf(entry.address));
    if (refused) {
      const reason = reasonOf(refused.address);
      return callback(new RefusedAddressError(`${hostname} resolves to ${refused.address} (${reason})`), '');
    }
    if (!addresses[0])
      return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
    if (options.all) return callback(null, addresses);
    return callback(null, addresses[0].address, addresses[0].family);
  });
}

/** A `lookup` for net.connect and node:http(s) agents that refuses what `reasonOf` refuses. */
export const refusingLookup =
  (reasonOf: (address: string) => string | undefined) =>
  (hostname: string, options: LookupOptions, callback: LookupCallback) =>
    guardedLookup(hostname, options, callback, reasonOf);

/**
 * Why a connection to `hostname` would be refused now — an internal IP address, or a name resolving to
 * one — or undefined (also when the name does not resolve within `timeoutMs`). For checks ahead of a
 * call someone else makes (a node pulling an image); calls of ours go through guardedConnector.
 */
export async function hostRefusalReason(hostname: string, timeoutMs = 2_000): Promise<string | undefined> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return refusedAddressReason(bare);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs)));
  try {
    const addresses = await Promise.race([dns.lookup(bare, { all: true }), late]);
    const refused = addresses?.find((entry) => refusedAddressReason(entry.address));
    return refused
      ? `${bare} resolves to ${refused.address} (${refusedAddressReason(refused.address)})`
      : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * An undici connector that refuses loopback, private, link-local, metadata and other internal addresses
 * (see refusedAddressReason) on every connection, after resolution, unless `allowlist` has the host.
 */
export async function guardedConnector(
  allowlist: HostAllowlist,
  timeoutMs: number,
): Promise<buildConnector.connector> {
  const { buildConnector } = await loadUndici();
  const open = buildConnector({ timeout: timeoutMs });
  const guarded = buildConnector({ timeout: timeoutMs, lookup: guardedLookup });
  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    if (allowlist.allows(options.hostname, port)) return open(options, callback);
    if (isIP(options.hostname)) {
      const reason = refusedAddressReason(options.hostname);
      if (reason) return callback(new RefusedAddressError(`${options.hostname} is ${reason}`), null);
    }
    return guarded(options, callback);
  };
}
