import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentConfig } from '../config.ts';
import type { ExternalDomainEntry, HttpServiceEntry } from '../snapshot.ts';
import { renderNginxHttp } from './nginx.ts';

const dir = mkdtempSync(join(tmpdir(), 'nginx-render-'));
const config: AgentConfig['nginx'] = {
  bin: 'nginx',
  mainConf: join(dir, 'nginx.conf'),
  httpConf: join(dir, 'http.conf'),
  streamConf: join(dir, 'stream.conf'),
  pidFile: join(dir, 'nginx.pid'),
  unit: 'nginx',
  httpPort: 8080,
  httpsPort: 8443,
  certDir: join(dir, 'certs'),
  acmeDir: join(dir, 'acme'),
  syslogAddress: '127.0.0.1:5514',
};
// A certificate copied in by hand for example.test; other.test has none.
mkdirSync(join(config.certDir, 'example.test'), { recursive: true });
for (const file of ['fullchain.pem', 'privkey.pem'])
  writeFileSync(join(config.certDir, 'example.test', file), '');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const service = (domain: string, toggles: Pick<HttpServiceEntry, 'redirectHttps' | 'hsts'>) => ({
  serviceId: 1,
  host: `app.${domain}`,
  domain,
  backendScheme: 'http' as const,
  address: '10.0.0.5',
  port: 3000,
  authRequired: false,
  authServer: null,
  ...toggles,
});

/** The rendered `server {}` blocks, each as its text. */
const servers = (entry: HttpServiceEntry) =>
  renderNginxHttp(config, { httpServices: [entry], streamServices: [], externalDomains: [], volumes: [] })
    .split('\n\n')
    .filter((part) => part.includes('server {'));

const ACME = 'location ^~ /.well-known/acme-challenge/';
const HSTS = 'add_header Strict-Transport-Security "max-age=31536000" always;';
const REDIRECT = 'return 301 https://$host:8443$request_uri;';

describe('nginx rendering of the redirect and HSTS toggles', () => {
  it('with both off, one server answers HTTP and HTTPS alike', () => {
    const [only, ...rest] = servers(service('example.test', {}));
    expect(rest).toEqual([]);
    expect(only).toContain('listen 8080;');
    expect(only).toContain('listen 8443 ssl;');
    expect(only).toContain(ACME);
    expect(only).toContain('proxy_pass http://10.0.0.5:3000;');
    expect(only).not.toContain(HSTS);
    expect(only).not.toContain('return 301');
  });

  it('without a certificate, neither redirects nor sends HSTS: there is no HTTPS to go to', () => {
    const [only, ...rest] = servers(service('other.test', { redirectHttps: true, hsts: true }));
    expect(rest).toEqual([]);
    expect(only).toContain('listen 8080;');
    expect(only).not.toContain('ssl');
    expect(only).not.toContain(HSTS);
    expect(only).not.toContain('return 301');
    expect(only).toContain('proxy_pass http://10.0.0.5:3000;');
  });

  it('redirect: port 80 answers the ACME challenge and redirects everything else to the HTTPS port', () => {
    const [plain, secure] = servers(service('example.test', { redirectHttps: true }));
    expect(plain).toContain('listen 8080;');
    expect(plain).not.toContain('ssl');
    expect(plain).toContain(ACME);
    expect(plain).toContain(REDIRECT);
    expect(plain).not.toContain('proxy_pass');
    expect(secure).toContain('listen 8443 ssl;');
    expect(secure).not.toContain('listen 8080;');
    expect(secure).toContain('proxy_pass http://10.0.0.5:3000;');
    expect(secure).not.toContain(HSTS);
  });

  it('HSTS: the header only on the TLS server; plain HTTP still reaches the backend', () => {
    const [plain, secure] = servers(service('example.test', { hsts: true }));
    expect(plain).toContain(ACME);
    expect(plain).toContain('proxy_pass http://10.0.0.5:3000;');
    expect(plain).not.toContain(HSTS);
    expect(plain).not.toContain('return 301');
    expect(secure).toContain('listen 8443 ssl;');
    expect(secure).toContain(HSTS);
  });

  it('on the standard HTTPS port the redirect names no port', () => {
    const standard = { ...config, httpsPort: 443 };
    const text = renderNginxHttp(standard, {
      httpServices: [service('example.test', { redirectHttps: true })],
      streamServices: [],
      externalDomains: [],
      volumes: [],
    });
    expect(text).toContain('return 301 https://$host$request_uri;');
  });
});

describe('nginx rendering: which certificate a host is served with', () => {
  // ACME certificates of app.acme.test: its own (HTTP-01) and its domain's wildcard (DNS-01).
  for (const name of ['app.acme.test', '*.acme.test']) {
    mkdirSync(join(config.acmeDir, 'certs', name), { recursive: true });
    for (const file of ['fullchain.pem', 'privkey.pem'])
      writeFileSync(join(config.acmeDir, 'certs', name, file), '');
  }
  const certificateOf = (domain: ExternalDomainEntry) =>
    renderNginxHttp(config, {
      httpServices: [service('acme.test', {})],
      streamServices: [],
      externalDomains: [domain],
      volumes: [],
    }).match(/ssl_certificate "([^"]+)"/)?.[1];

  it('the one the agent keeps now: the wildcard once the domain has DNS-01, the host’s own before and after', () => {
    const domain = { name: 'acme.test', acmeEmail: 'ops@acme.test' };
    expect(certificateOf({ ...domain, acmeDnsChallenge: true })).toBe(
      join(config.acmeDir, 'certs', '*.acme.test', 'fullchain.pem'),
    );
    expect(certificateOf(domain)).toBe(join(config.acmeDir, 'certs', 'app.acme.test', 'fullchain.pem'));
  });
});
