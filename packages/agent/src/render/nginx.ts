import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { certificateNameOf, coveredByWildcard, wildcardOf } from '../acme/names.ts';
import { AcmeStore } from '../acme/store.ts';
import type { AgentConfig } from '../config.ts';
import type { ExternalDomainEntry, HttpServiceEntry, ProxySnapshot } from '../snapshot.ts';

type NginxConfig = AgentConfig['nginx'];

/** nginx takes strings in double quotes; ours never hold quotes, but never trust a value. */
const quote = (value: string) => `"${value.replace(/["\\$]/g, '')}"`;
const UNAVAILABLE_PAGE =
  '<!doctype html><title>Sign-in unavailable</title><h1>Sign-in unavailable</h1>' +
  '<p>This service requires sign-in, but its domain has no authentication server configured. ' +
  'Ask an administrator to set one for the domain.</p>';

/**
 * The ACME certificate the agent keeps for the host now (its own, or its domain's wildcard by DNS-01),
 * else the other one while the new kind is not obtained yet, else one copied into `<certDir>/<domain>/`.
 */
function certificate(
  config: NginxConfig,
  service: HttpServiceEntry,
  domain: ExternalDomainEntry | undefined,
) {
  const manual = {
    cert: join(config.certDir, service.domain, 'fullchain.pem'),
    key: join(config.certDir, service.domain, 'privkey.pem'),
  };
  const kept = certificateNameOf(service.host, domain);
  const other = kept === service.host ? wildcardOf(service.domain) : service.host;
  const acme = (name: string) => AcmeStore.certificatePaths(config.acmeDir, name);
  const candidates = coveredByWildcard(service.host, service.domain)
    ? [acme(kept), acme(other)]
    : [acme(kept)];
  return [...candidates, manual].find(({ cert, key }) => existsSync(cert) && existsSync(key));
}

/**
 * The certificate's serial, written into the configuration: a renewed certificate then changes the
 * file, which makes the apply check it and reload nginx (nginx reads certificates only then).
 */
function serial(file: string): string {
  try {
    return ` # serial ${new X509Certificate(readFileSync(file)).serialNumber}`;
  } catch {
    return ''; // not a certificate: nginx -t says so
  }
}

/** HSTS for a year: long enough to matter, as the common recommendation has it. */
const HSTS_HEADER = '  add_header Strict-Transport-Security "max-age=31536000" always;';

function serverBlock(
  config: NginxConfig,
  service: HttpServiceEntry,
  domain: ExternalDomainEntry | undefined,
): string {
  const tls = certificate(config, service, domain);
  const plain = `  listen ${config.httpPort};`;
  const secure = tls
    ? [
        `  listen ${config.httpsPort} ssl;`,
        `  ssl_certificate ${quote(tls.cert)};${serial(tls.cert)}`,
        `  ssl_certificate_key ${quote(tls.key)};`,
      ]
    : [];
  const locations = serviceLocations(service);
  // The toggles need HTTP and HTTPS told apart, so they split the server in two; without a
  // certificate there is nothing to redirect to nor any TLS answer to mark.
  if (!tls || !(service.redirectHttps || service.hsts)) {
    return server(config, service, [plain, ...secure], [acmeLocation(config), ...locations]);
  }
  const port = config.httpsPort === 443 ? '' : `:${config.httpsPort}`;
  const redirect = ['  location / {', `    return 301 https://$host${port}$request_uri;`, '  }'];
  return [
    server(
      config,
      service,
      [plain],
      [acmeLocation(config), ...(service.redirectHttps ? redirect : locations)],
    ),
    server(config, service, [...secure, ...(service.hsts ? [HSTS_HEADER] : [])], locations),
  ].join('\n\n');
}

/** HTTP-01 answers, before any sign-in: the ACME server fetches them anonymously. */
const acmeLocation = (config: NginxConfig) =>
  [
    '  location ^~ /.well-known/acme-challenge/ {',
    `    root ${quote(AcmeStore.webroot(config.acmeDir))};`,
    '    default_type text/plain;',
    '  }',
  ].join('\n');

function server(config: NginxConfig, service: HttpServiceEntry, head: string[], body: string[]): string {
  return [
    `# service ${service.serviceId}`,
    'server {',
    ...head,
    `  server_name ${service.host};`,
    // The syslog tag carries the service id: the traffic reporter reads it, and no variable is needed.
    `  access_log syslog:server=${config.syslogAddress},tag=site_agent_${service.serviceId},nohostname site_agent_access;`,
    ...body,
    '}',
  ].join('\n');
}

/** What the service answers: its backend, behind sign-in when it requires one. */
function serviceLocations(service: HttpServiceEntry): string[] {
  const lines: string[] = [];
  const upstream = `${service.backendScheme}://${service.address}:${service.port}`;
  const proxy = [
    `    proxy_pass ${upstream};`,
    '    proxy_http_version 1.1;',
    '    proxy_set_header Upgrade $http_upgrade;',
    '    proxy_set_header Connection $connection_upgrade;',
    '    proxy_set_header Host $host;',
    '    proxy_set_header X-Real-IP $remote_addr;',
    '    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    '    proxy_set_header X-Forwarded-Proto $scheme;',
    ...(service.backendScheme === 'https' ? ['    proxy_ssl_server_name on;'] : []),
  ];
  if (service.authRequired && !service.authServer) {
    lines.push(
      '  location / {',
      '    default_type text/html;',
      `    return 503 ${quote(UNAVAILABLE_PAGE)};`,
      '  }',
    );
  } else if (service.authRequired && service.authServer) {
    const auth = service.authServer.replace(/\/+$/, '');
    lines.push(
      '  location /oauth2/ {',
      `    proxy_pass ${auth};`,
      '    proxy_set_header Host $host;',
      '    proxy_set_header X-Real-IP $remote_addr;',
      '    proxy_set_header X-Forwarded-Proto $scheme;',
      '    proxy_set_header X-Auth-Request-Redirect $request_uri;',
      '  }',
      '  location = /oauth2/auth {',
      '    internal;',
      `    proxy_pass ${auth};`,
      '    proxy_set_header Host $host;',
      '    proxy_set_header X-Original-URI $request_uri;',
      '    proxy_set_header Content-Length "";',
      '    proxy_pass_request_body off;',
      '  }',
      '  location @sign_in {',
      '    return 302 /oauth2/start?rd=$scheme://$host$request_uri;',
      '  }',
      '  location / {',
      '    auth_request /oauth2/auth;',
      '    error_page 401 = @sign_in;',
      '    auth_request_set $auth_user $upstream_http_x_auth_request_user;',
      '    proxy_set_header X-Forwarded-User $auth_user;',
      ...proxy,
      '  }',
    );
  } else {
    lines.push('  location / {', ...proxy, '  }');
  }
  return lines;
}

/** The `http {}` part: one server block per HTTP service. */
export function renderNginxHttp(config: NginxConfig, proxy: ProxySnapshot): string {
  const services = [...proxy.httpServices].sort((a, b) => a.serviceId - b.serviceId);
  const domains = new Map(proxy.externalDomains.map((domain) => [domain.name, domain]));
  return [
    '# Generated by site-agent from the manager snapshot. Changes here are overwritten.',
    'map $http_upgrade $connection_upgrade { default upgrade; "" close; }',
    "log_format site_agent_access 'status=$status bytes=$body_bytes_sent';",
    ...services.map((service) => serverBlock(config, service, domains.get(service.domain))),
    '',
  ].join('\n\n');
}

/** The top-level `stream {}` block: one server per TCP or UDP service. */
export function renderNginxStream(config: NginxConfig, proxy: ProxySnapshot): string {
  const services = [...proxy.streamServices].sort((a, b) => a.serviceId - b.serviceId);
  const servers = services.map((service) =>
    [
      `  # service ${service.serviceId}`,
      '  server {',
      `    listen ${service.externalPort}${service.protocol === 'udp' ? ' udp' : ''};`,
      `    access_log syslog:server=${config.syslogAddress},tag=site_agent_${service.serviceId},nohostname site_agent_stream;`,
      `    proxy_pass ${service.address}:${service.port};`,
      '  }',
    ].join('\n'),
  );
  return [
    '# Generated by site-agent from the manager snapshot. Changes here are overwritten.',
    'stream {',
    "  log_format site_agent_stream 'status=$status bytes=$bytes_received';",
    ...servers,
    '}',
    '',
  ].join('\n');
}
