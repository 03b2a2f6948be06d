import { isIP, isIPv4 } from 'node:net';
import type { FieldErrors } from '@app/server-kit';

/** IPv4 dotted quad → unsigned 32-bit number. */
export const ipv4ToNumber = (address: string) =>
  address.split('.').reduce((total, octet) => total * 256 + Number(octet), 0);

export const numberToIpv4 = (value: number) =>
  [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');

/** A DHCP range as `start,end` or `start-end` (both IPv4, start ≤ end), or undefined when it does not parse. */
export function parseDhcpRange(range: string): { start: string; end: string } | undefined {
  const parts = range.split(/[,-]/).map((part) => part.trim());
  if (parts.length !== 2) return undefined;
  const [start, end] = parts as [string, string];
  if (!isIPv4(start) || !isIPv4(end) || ipv4ToNumber(start) > ipv4ToNumber(end)) return undefined;
  return { start, end };
}

export function isNetmask(mask: string): boolean {
  if (!isIPv4(mask)) return false;
  const bits = ipv4ToNumber(mask).toString(2).padStart(32, '0');
  return /^1+0*$/.test(bits);
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

export interface SiteNetwork {
  name: string;
  internalDomain: string;
  dhcpRange: string;
  subnetMask: string;
  gateway: string;
  dnsForwarders: string;
  externalIp: string | null;
}

/** The model rules of a site; each broken rule names its field (answered as 422 validation_failed). */
export function siteRuleViolations(site: SiteNetwork): FieldErrors {
  const fields: FieldErrors = {};
  if (!site.name.trim()) fields.name = 'must not be blank';
  if (!DOMAIN.test(site.internalDomain))
    fields.internalDomain = 'must be a domain name such as example.internal';
  if (!parseDhcpRange(site.dhcpRange)) {
    fields.dhcpRange = 'must be two IPv4 addresses, lowest first, as "start,end" or "start-end"';
  }
  if (!isNetmask(site.subnetMask)) fields.subnetMask = 'must be an IPv4 netmask such as 255.255.255.0';
  if (!isIPv4(site.gateway)) fields.gateway = 'must be an IPv4 address';
  const forwarders = site.dnsForwarders.split(',').map((entry) => entry.trim());
  if (forwarders.some((entry) => !isIP(entry)))
    fields.dnsForwarders = 'must be IP addresses separated by commas';
  if (site.externalIp !== null && !isIP(site.externalIp)) fields.externalIp = 'must be an IP address';
  return fields;
}
