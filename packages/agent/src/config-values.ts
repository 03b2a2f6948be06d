import { isIP, isIPv4 } from 'node:net';

/**
 * The grammar of every value the site agent writes into an nginx or dnsmasq file. The manager checks
 * input with it at the API, and the agent checks each snapshot with it again before rendering, so a
 * value can never end a directive, open a block or expand a variable (`;`, `{`, `}`, `$`, `#`, quotes,
 * whitespace, newlines) in a configuration that root loads on every gateway.
 */

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;
/** SRV owner names (`_ldap._tcp`): labels that may start with one underscore. */
const SRV_LABEL = /^_?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;
const MAX_NAME = 253;

export { isIPv4 };
export const isIpAddress = (value: string) => isIP(value) !== 0;

/** One DNS label: letters, digits and inner hyphens, 1 to 63 characters. */
export const isDnsLabel = (value: string) => LABEL.test(value);

/** Labels joined by dots (`minLabels` or more), at most 253 characters. */
export function isDomainName(value: string, minLabels = 1): boolean {
  const labels = value.split('.');
  return value.length <= MAX_NAME && labels.length >= minLabels && labels.every(isDnsLabel);
}

/** A DNS SRV name such as `_ldap._tcp` (a leading underscore per label is allowed). */
export function isSrvName(value: string): boolean {
  return value.length <= MAX_NAME && value.split('.').every((label) => SRV_LABEL.test(label));
}

export const isMacAddress = (value: string) => /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/i.test(value);

export const isPort = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 65535;

/** IPv4 dotted quad → unsigned 32-bit number. */
export const ipv4ToNumber = (address: string) =>
  address.split('.').reduce((total, octet) => total * 256 + Number(octet), 0);

/** `start,end` or `start-end` (spaces allowed around the separator), both IPv4, start ≤ end. */
export function parseDhcpRange(range: string): { start: string; end: string } | undefined {
  const match = /^([0-9.]+) *[,-] *([0-9.]+)$/.exec(range);
  if (!match) return undefined;
  const [, start, end] = match as unknown as [string, string, string];
  if (!isIPv4(start) || !isIPv4(end) || ipv4ToNumber(start) > ipv4ToNumber(end)) return undefined;
  return { start, end };
}

export function isNetmask(mask: string): boolean {
  if (!isIPv4(mask)) return false;
  return /^1+0*$/.test(ipv4ToNumber(mask).toString(2).padStart(32, '0'));
}

/** Comma-separated upstream DNS servers, each an IP address with an optional `#port`; undefined otherwise. */
export function parseDnsForwarders(value: string): string[] | undefined {
  if (!value.trim()) return []; // none: dnsmasq asks the gateway host's own resolvers
  const servers = value.split(',').map((entry) => entry.replace(/^ +| +$/g, ''));
  const fits = (server: string) => {
    const [address = '', port, ...rest] = server.split('#');
    return !rest.length && isIpAddress(address) && (port === undefined || isPort(Number(port)));
  };
  return servers.every(fits) ? servers : undefined;
}

/**
 * The base URL nginx passes `/oauth2/*` to: http or https, a host (domain name, IPv4 or [IPv6]), an
 * optional port, and a path of letters, digits and `. _ ~ % / + -` only — no credentials, query or
 * fragment, nothing nginx would read as syntax.
 */
export function isAuthServerUrl(value: string): boolean {
  const match = /^https?:\/\/([^/:[\]]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?(\/[A-Za-z0-9._~%/+-]*)?$/i.exec(
    value,
  );
  if (!match) return false;
  const [, host = '', port] = match;
  const hostFits = host.startsWith('[') ? isIP(host.slice(1, -1)) === 6 : isIPv4(host) || isDomainName(host);
  return hostFits && (port === undefined || isPort(Number(port)));
}

/**
 * An ACME directory URL: https only (RFC 8555 §6.1), a host (domain name, IPv4 or [IPv6]), an optional
 * port and a path of URL characters — no credentials, no fragment, no whitespace, at most 2048 characters.
 * Where the agent may connect is the outbound policy's to say, when it connects.
 */
export function isAcmeDirectoryUrl(value: string): boolean {
  const match =
    /^https:\/\/([^/:[\]@]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?(\/[A-Za-z0-9._~%!$&'()*+,;=:@/?-]*)?$/i.exec(
      value,
    );
  if (!match || value.length > 2048) return false;
  const [, host = '', port] = match;
  const hostFits = host.startsWith('[') ? isIP(host.slice(1, -1)) === 6 : isIPv4(host) || isDomainName(host);
  return hostFits && (port === undefined || isPort(Number(port)));
}

/** An absolute file path of safe characters and no `..` segment (certificate and key files). */
export const isSafePath = (value: string) =>
  value.length <= 1024 && /^\/[A-Za-z0-9._/-]*$/.test(value) && !value.split('/').includes('..');

/** One component of a volume path as the manager encodes it (never `.` or `..`, no leading dot). */
const VOLUME_SEGMENT = /^[A-Za-z0-9_%-][A-Za-z0-9._%-]*$/;

/**
 * Whether `path` has the shape the manager gives volume folders of this site,
 * `<storage dir>/<site id>/<owner uid>/<hostname>/<volume name>`: absolute, normalised, each
 * component one the manager's encoding makes, and below a storage folder — never `/`, the storage
 * folder, or anything of another site.
 */
export function isRemovableVolumePath(path: string, siteId: number): boolean {
  if (!path.startsWith('/') || path.endsWith('/')) return false;
  const parts = path.slice(1).split('/');
  if (parts.length < 5 || parts.some((part) => !part || part === '.' || part === '..')) return false;
  const [site, uid, hostname, name] = parts.slice(-4);
  return (
    site === String(siteId) &&
    /^\d+$/.test(uid!) &&
    VOLUME_SEGMENT.test(hostname!) &&
    VOLUME_SEGMENT.test(name!)
  );
}
