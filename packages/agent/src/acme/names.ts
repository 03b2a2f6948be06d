import type { ExternalDomainEntry } from '../snapshot.ts';

/** The wildcard certificate's name for a domain. */
export const wildcardOf = (domain: string) => `*.${domain}`;

/** Whether a wildcard certificate of `domain` covers `host` (one label more, RFC 6125 §6.4.3). */
export const coveredByWildcard = (host: string, domain: string) =>
  host.endsWith(`.${domain}`) && !host.slice(0, -domain.length - 1).includes('.');

/** The certificate the agent keeps for `host` of `domain`: the domain's wildcard when it has one by DNS-01. */
export const certificateNameOf = (
  host: string,
  domain: Pick<ExternalDomainEntry, 'name' | 'acmeDnsChallenge'> | undefined,
) => (domain?.acmeDnsChallenge && coveredByWildcard(host, domain.name) ? wildcardOf(domain.name) : host);
