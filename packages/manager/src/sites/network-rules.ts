import {
  ipv4ToNumber,
  isDomainName,
  isIpAddress,
  isIPv4,
  isNetmask,
  parseDhcpRange,
  parseDnsForwarders,
} from '@app/agent/config-values';
import type { FieldErrors } from '@app/server-kit';

export const numberToIpv4 = (value: number) =>
  [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');

/** The site's subnet in CIDR notation (`10.0.0.0/24`), from its gateway and netmask. */
export function siteSubnet(site: { gateway: string; subnetMask: string }): string {
  const mask = ipv4ToNumber(site.subnetMask);
  const prefix = mask.toString(2).replace(/0+$/, '').length;
  const base = ipv4ToNumber(site.gateway) - (ipv4ToNumber(site.gateway) % 2 ** (32 - prefix));
  return `${numberToIpv4(base)}/${prefix}`;
}

export interface SiteNetwork {
  name: string;
  internalDomain: string;
  dhcpRange: string;
  subnetMask: string;
  gateway: string;
  dnsForwarders: string;
  externalIp: string | null;
}

/**
 * The model rules of a site — the grammar of what the site agent writes into dnsmasq; each broken rule
 * names its field (answered as 422 validation_failed).
 */
export function siteRuleViolations(site: SiteNetwork): FieldErrors {
  const fields: FieldErrors = {};
  if (!site.name.trim()) fields.name = 'must not be blank';
  if (!isDomainName(site.internalDomain))
    fields.internalDomain = 'must be a domain name such as example.internal';
  if (!parseDhcpRange(site.dhcpRange)) {
    fields.dhcpRange = 'must be two IPv4 addresses, lowest first, as "start,end" or "start-end"';
  }
  if (!isNetmask(site.subnetMask)) fields.subnetMask = 'must be an IPv4 netmask such as 255.255.255.0';
  if (!isIPv4(site.gateway)) fields.gateway = 'must be an IPv4 address';
  if (!parseDnsForwarders(site.dnsForwarders))
    fields.dnsForwarders = 'must be IP addresses separated by commas, each optionally with #port';
  if (site.externalIp !== null && !isIpAddress(site.externalIp)) fields.externalIp = 'must be an IP address';
  return fields;
}
