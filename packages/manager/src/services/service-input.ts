import { isDnsLabel, isDomainName, isSrvName } from '@app/agent/config-values';
import type { ExternalDomain } from '../external-domains/external-domains-repository.ts';
import { fail } from '../errors/catalogue.ts';

/** ServiceInput as the API receives it (forms may send numbers as strings). */
export interface ServiceInput {
  type?: unknown;
  internalPort?: unknown;
  externalHostname?: unknown;
  externalDomainId?: unknown;
  dnsName?: unknown;
  authRequired?: unknown;
  /** Addition to the spec's ServiceInput: answer plain HTTP with a redirect to HTTPS (http/https only). */
  redirectHttps?: unknown;
  /** Addition to the spec's ServiceInput: send Strict-Transport-Security over HTTPS (http/https only). */
  hsts?: unknown;
}

/** The on/off settings of an HTTP service, which an update may change in place. */
export const HTTP_TOGGLES = ['authRequired', 'redirectHttps', 'hsts'] as const;
export type HttpToggles = Record<(typeof HTTP_TOGGLES)[number], boolean>;

/** ServiceUpdate: ServiceInput plus an existing id and the delete flag. */
export interface ServiceUpdateInput extends ServiceInput {
  id?: unknown;
  deleted?: unknown;
}

export type NewService =
  | ({
      kind: 'http';
      internalPort: number;
      externalHostname: string;
      externalDomainId: number;
      backendProtocol: 'http' | 'https';
    } & HttpToggles)
  | { kind: 'transport'; internalPort: number; protocol: 'tcp' | 'udp' }
  | { kind: 'dns'; internalPort: number; dnsName: string };

export const SERVICE_TYPES = ['http', 'https', 'tcp', 'udp', 'srv'] as const;

const invalid = (key: string, problem: string) =>
  fail('invalid_service', `Service "${key}": ${problem}.`, { [`services.${key}`]: problem });

const blank = (value: unknown) => value === undefined || value === null || value === '';

/** An integer from a number or a string of digits; undefined otherwise. */
export function integer(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

export function flag(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'on' || value === '1' || value === 1) return true;
  if (value === 'false' || value === 'off' || value === '0' || value === 0 || value === '') return false;
  return undefined;
}

/** The external domains the entries refer to (so the caller can load them in one query). */
export function referencedDomainIds(entries: Record<string, ServiceInput>): number[] {
  const ids = Object.values(entries)
    .map((entry) => integer(entry?.externalDomainId))
    .filter((id): id is number => id !== undefined);
  return [...new Set(ids)];
}

/** One ServiceInput checked and normalised; 400 invalid_service naming the entry otherwise. */
export function parseService(
  key: string,
  entry: ServiceInput,
  domains: Map<number, ExternalDomain>,
): NewService {
  if (!entry || typeof entry !== 'object') throw invalid(key, 'must be an object');
  const type = typeof entry.type === 'string' ? entry.type.trim().toLowerCase() : '';
  if (!(SERVICE_TYPES as readonly string[]).includes(type)) {
    throw invalid(key, `type must be one of ${SERVICE_TYPES.join(', ')}`);
  }
  const internalPort = integer(entry.internalPort);
  if (internalPort === undefined || internalPort < 1 || internalPort > 65535) {
    throw invalid(key, 'internalPort must be a port number (1-65535)');
  }
  const toggle = (name: keyof HttpToggles) => {
    const value = blank(entry[name]) ? false : flag(entry[name]);
    if (value === undefined) throw invalid(key, `${name} must be true or false`);
    return value;
  };
  const [authRequired, redirectHttps, hsts] = [
    toggle('authRequired'),
    toggle('redirectHttps'),
    toggle('hsts'),
  ];
  if (type === 'tcp' || type === 'udp') return { kind: 'transport', internalPort, protocol: type };
  if (type === 'srv') {
    const dnsName = typeof entry.dnsName === 'string' ? entry.dnsName.trim() : '';
    if (!isSrvName(dnsName)) {
      throw invalid(
        key,
        'dnsName is required for srv (a DNS name such as _ldap._tcp: labels of letters, digits and inner hyphens, each may start with _)',
      );
    }
    return { kind: 'dns', internalPort, dnsName };
  }
  const externalHostname =
    typeof entry.externalHostname === 'string' ? entry.externalHostname.trim().toLowerCase() : '';
  if (!isDnsLabel(externalHostname)) {
    throw invalid(key, 'externalHostname is required for http and https (a DNS label)');
  }
  const externalDomainId = integer(entry.externalDomainId);
  const domain = externalDomainId === undefined ? undefined : domains.get(externalDomainId);
  if (!domain) throw invalid(key, 'externalDomainId must name an existing external domain');
  if (!isDomainName(`${externalHostname}.${domain.name}`)) {
    throw invalid(key, `externalHostname makes a host name longer than 253 characters with ${domain.name}`);
  }
  if (authRequired && !domain.authServer) {
    throw invalid(key, `authRequired needs an auth server on domain ${domain.name}`);
  }
  return {
    kind: 'http',
    internalPort,
    externalHostname,
    externalDomainId: domain.id,
    backendProtocol: type === 'https' ? 'https' : 'http',
    authRequired,
    redirectHttps,
    hsts,
  };
}
