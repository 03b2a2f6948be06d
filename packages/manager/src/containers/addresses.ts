import { randomBytes, randomInt } from 'node:crypto';
import { ipv4ToNumber, parseDhcpRange } from '@app/agent/config-values';
import { numberToIpv4 } from '../sites/network-rules.ts';
import { fail } from '../errors/catalogue.ts';

/** Columns whose unique constraints judge concurrent allocations (retry the transaction on a clash). */
export const ALLOCATED_COLUMNS = ['mac_address', 'ipv4_address', 'external_port'];

/** A random locally administered unicast MAC (first octet x2, x6, xA or xE). */
export function randomMac(): string {
  const bytes = randomBytes(6);
  bytes[0] = (bytes[0]! & 0xfc) | 0x02;
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join(':');
}

const SCAN_LIMIT = 65_536;

/**
 * A random free value among `size` consecutive ones starting at `first`, or undefined when none is
 * free. Random (not lowest-first), so concurrent creates rarely pick the same one; when they do, the
 * unique constraint rejects one and its transaction is retried.
 */
export function pickFree(first: number, size: number, taken: Set<number>): number | undefined {
  if (size <= SCAN_LIMIT) {
    const free: number[] = [];
    for (let value = first; value < first + size; value++) if (!taken.has(value)) free.push(value);
    return free.length ? free[randomInt(free.length)] : undefined;
  }
  for (let tries = 0; tries < 10_000; tries++) {
    const value = first + randomInt(size);
    if (!taken.has(value)) return value;
  }
  return undefined;
}

/** A free IPv4 address of the site's DHCP range (never the gateway). */
export function pickIpv4(dhcpRange: string, gateway: string, used: Iterable<string>): string {
  const range = parseDhcpRange(dhcpRange);
  if (!range) throw fail('no_address', 'The site has no valid DHCP range.');
  const taken = new Set<number>();
  for (const address of used) taken.add(ipv4ToNumber(address));
  taken.add(ipv4ToNumber(gateway));
  const first = ipv4ToNumber(range.start);
  const picked = pickFree(first, ipv4ToNumber(range.end) - first + 1, taken);
  if (picked === undefined) {
    throw fail('no_address', 'Every address of the site DHCP range is in use.');
  }
  return numberToIpv4(picked);
}

export function pickPort(range: { min: number; max: number }, used: Iterable<number>): number {
  const picked = pickFree(range.min, range.max - range.min + 1, new Set(used));
  if (picked === undefined) {
    throw fail('no_port', 'Every external port of the transport range is in use.');
  }
  return picked;
}
