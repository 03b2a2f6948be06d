import { describe, expect, it } from 'vitest';
import type { ExternalDomainEntry, HttpServiceEntry, ProxySnapshot } from '../snapshot.ts';
import { acmeTargets } from './renewal.ts';

const service = (host: string, domain: string): HttpServiceEntry => ({
  serviceId: 1,
  host,
  domain,
  backendScheme: 'http',
  address: '10.0.0.5',
  port: 80,
  authRequired: false,
  authServer: null,
});
const proxy = (domains: ExternalDomainEntry[], hosts: Array<[string, string]>): ProxySnapshot => ({
  httpServices: hosts.map(([host, domain]) => service(host, domain)),
  streamServices: [],
  externalDomains: domains,
  volumes: [],
});
const acme = { acmeEmail: 'ops@example.test', acmeDirectoryUrl: 'https://acme.test/dir' };

describe('which certificates the agent keeps', () => {
  it('one wildcard by DNS-01 for the hosts of a domain the manager answers for; HTTP-01 for the rest', () => {
    const targets = acmeTargets(
      proxy(
        [
          { name: 'dns.test', ...acme, acmeDnsChallenge: true },
          { name: 'http.test', ...acme },
          { name: 'none.test' },
        ],
        [
          ['a.dns.test', 'dns.test'],
          ['b.dns.test', 'dns.test'],
          // Two labels below the domain: no wildcard covers it.
          ['deep.b.dns.test', 'dns.test'],
          ['c.http.test', 'http.test'],
          ['d.none.test', 'none.test'],
        ],
      ),
    );
    expect(targets.map((t) => [t.names, t.challenge])).toEqual([
      [['*.dns.test', 'dns.test'], { type: 'dns-01', domain: 'dns.test' }],
      [['deep.b.dns.test'], { type: 'http-01' }],
      [['c.http.test'], { type: 'http-01' }],
    ]);
    expect(targets[0]).toMatchObject({ email: 'ops@example.test', directoryUrl: 'https://acme.test/dir' });
  });
});
