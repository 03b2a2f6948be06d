import {
  isAuthServerUrl,
  isDomainName,
  isIpAddress,
  isIPv4,
  isMacAddress,
  isNetmask,
  isPort,
  isSrvName,
  parseDhcpRange,
  parseDnsForwarders,
} from './config-values.ts';
import type { ProxySnapshot, SiteSnapshot } from './snapshot.ts';

/**
 * The snapshot checked again, in the agent, with the grammar the manager enforces at its API: a
 * manager that was changed, or an answer that was forged, must not write a directive into a file
 * root loads. Each problem names the value, for the log and the report to the manager.
 */
class Problems {
  readonly found: string[] = [];

  check(path: string, value: unknown, what: string, fits: (value: string) => unknown) {
    if (typeof value !== 'string' || !fits(value)) this.found.push(`${path} ${show(value)} is not ${what}`);
  }

  optional(path: string, value: unknown, what: string, fits: (value: string) => unknown) {
    if (value !== null) this.check(path, value, what, fits);
  }

  number(path: string, value: unknown, what: string, fits: (value: number) => boolean) {
    if (typeof value !== 'number' || !fits(value)) this.found.push(`${path} ${show(value)} is not ${what}`);
  }

  /** The entries of a list, or none (and a problem) when it is not one. */
  list<T>(path: string, value: T[] | unknown): T[] {
    if (Array.isArray(value)) return value as T[];
    this.found.push(`${path} is not a list`);
    return [];
  }
}

const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
};
const isId = (value: number) => Number.isInteger(value) && value > 0;
const oneOf =
  (...allowed: string[]) =>
  (value: string) =>
    allowed.includes(value);

const DOMAIN = 'a domain name';
const HOST = 'a host name';
const IPV4 = 'an IPv4 address';
const PORT = 'a port number';
const ID = 'an id';

/** What dnsmasq gets: the site's network settings, host names and addresses, SRV records. */
export function siteProblems(site: SiteSnapshot): string[] {
  const problems = new Problems();
  problems.check('site.internalDomain', site.internalDomain, DOMAIN, (v) => isDomainName(v));
  problems.check('site.dhcpRange', site.dhcpRange, 'a DHCP range (start,end)', parseDhcpRange);
  problems.check('site.subnetMask', site.subnetMask, 'a netmask', isNetmask);
  problems.check('site.gateway', site.gateway, IPV4, isIPv4);
  problems.check('site.dnsForwarders', site.dnsForwarders, 'a list of IP addresses', parseDnsForwarders);
  problems.optional('site.externalIp', site.externalIp, 'an IP address', isIpAddress);
  problems.list<SiteSnapshot['nodes'][number]>('site.nodes', site.nodes).forEach((node, i) => {
    problems.check(`site.nodes[${i}].name`, node.name, HOST, (v) => isDomainName(v));
    problems.optional(`site.nodes[${i}].ipv4Address`, node.ipv4Address, IPV4, isIPv4);
  });
  problems.list<SiteSnapshot['containers'][number]>('site.containers', site.containers).forEach((c, i) => {
    problems.check(`site.containers[${i}].hostname`, c.hostname, HOST, (v) => isDomainName(v));
    problems.optional(`site.containers[${i}].ipv4Address`, c.ipv4Address, IPV4, isIPv4);
    problems.optional(`site.containers[${i}].macAddress`, c.macAddress, 'a MAC address', isMacAddress);
  });
  problems.list<SiteSnapshot['dnsRecords'][number]>('site.dnsRecords', site.dnsRecords).forEach((r, i) => {
    problems.number(`site.dnsRecords[${i}].serviceId`, r.serviceId, ID, isId);
    problems.check(`site.dnsRecords[${i}].dnsName`, r.dnsName, 'an SRV name', isSrvName);
    problems.check(`site.dnsRecords[${i}].hostname`, r.hostname, HOST, (v) => isDomainName(v));
    problems.number(`site.dnsRecords[${i}].port`, r.port, PORT, isPort);
  });
  return problems.found;
}

/** What nginx gets: HTTP services with their auth servers, TCP/UDP streams, external domains. */
export function proxyProblems(proxy: ProxySnapshot): string[] {
  const problems = new Problems();
  type Http = ProxySnapshot['httpServices'][number];
  problems.list<Http>('proxy.httpServices', proxy.httpServices).forEach((service, i) => {
    const at = `proxy.httpServices[${i}]`;
    problems.number(`${at}.serviceId`, service.serviceId, ID, isId);
    problems.check(`${at}.host`, service.host, HOST, (v) => isDomainName(v, 2));
    problems.check(`${at}.domain`, service.domain, DOMAIN, (v) => isDomainName(v, 2));
    problems.check(`${at}.backendScheme`, service.backendScheme, 'http or https', oneOf('http', 'https'));
    problems.check(`${at}.address`, service.address, IPV4, isIPv4);
    problems.number(`${at}.port`, service.port, PORT, isPort);
    problems.optional(`${at}.authServer`, service.authServer, 'an auth server URL', isAuthServerUrl);
  });
  type Stream = ProxySnapshot['streamServices'][number];
  problems.list<Stream>('proxy.streamServices', proxy.streamServices).forEach((service, i) => {
    const at = `proxy.streamServices[${i}]`;
    problems.number(`${at}.serviceId`, service.serviceId, ID, isId);
    problems.check(`${at}.protocol`, service.protocol, 'tcp or udp', oneOf('tcp', 'udp'));
    problems.number(`${at}.externalPort`, service.externalPort, PORT, isPort);
    problems.check(`${at}.address`, service.address, IPV4, isIPv4);
    problems.number(`${at}.port`, service.port, PORT, isPort);
  });
  type Domain = ProxySnapshot['externalDomains'][number];
  problems.list<Domain>('proxy.externalDomains', proxy.externalDomains).forEach((domain, i) => {
    problems.check(`proxy.externalDomains[${i}].name`, domain.name, DOMAIN, (v) => isDomainName(v, 2));
  });
  return problems.found;
}
